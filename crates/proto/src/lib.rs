//! caipan wire protocol: bincode messages, framing, versions, limits, TLS setup.
