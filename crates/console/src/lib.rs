//! caipan arbiter console: ratatui TUI for the chief arbiter and deputies.
