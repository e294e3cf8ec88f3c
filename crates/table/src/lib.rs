//! caipan table terminal: clock of record, move entry, offline outbox, replayer, load generator.
