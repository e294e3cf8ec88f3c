//! End-to-end tests: table (filled in by its issue).
