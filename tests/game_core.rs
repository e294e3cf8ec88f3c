//! End-to-end tests: game_core (filled in by its issue).
