//! caipan hall server: QUIC endpoint, roles, durable event store, table state, alerts.
