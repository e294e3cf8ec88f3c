//! End-to-end tests: rulebook (filled in by its issue).
