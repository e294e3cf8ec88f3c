//! End-to-end tests: export (filled in by its issue).
