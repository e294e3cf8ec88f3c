//! End-to-end tests: console (filled in by its issue).
