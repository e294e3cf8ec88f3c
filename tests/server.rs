//! End-to-end tests: server (filled in by its issue).
