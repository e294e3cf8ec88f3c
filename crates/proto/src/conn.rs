//! Connection helpers for both ends.
//!
//! # Stream layout
//! One QUIC connection per client, with ONE bidirectional stream opened by
//! the client right after the handshake. Client-to-server frames
//! ([`ClientMsg`], first always `Hello`) go up that stream in order;
//! server-to-client frames ([`ServerMsg`]: the `HelloOk` or `Error` answer,
//! then acks, replies and pushes such as deltas and table controls) come
//! down it in order. No other streams are used.
//!
//! # Client
//! [`Connector`] holds a client endpoint and a pinned TLS config and can
//! open many connections (the bench opens 1,000 over one endpoint);
//! [`connect`] is the one-shot form. Both return a [`ClientConn`] after the
//! hello exchange; split it with [`ClientConn::split`] to send and receive
//! from separate tasks.
//!
//! # Server
//! The server crate owns the accept loop; [`accept_hello`] does the
//! protocol part of a new connection (accept the stream, read the first
//! frame within [`SERVER_HELLO_DEADLINE`], check it is a `Hello` of
//! [`PROTOCOL_VERSION`]) and returns a [`ServerConn`]; authentication is the
//! server's, which then sends `HelloOk` or calls [`ServerConn::refuse`].
//!
//! Application close codes: [`CLOSE_NORMAL`], [`CLOSE_REFUSED`],
//! [`CLOSE_PROTOCOL`], [`CLOSE_STALLED`].

use crate::frame::{FrameError, FrameReader, FrameWriter};
use crate::message::{ClientMsg, ErrorCode, ErrorReply, Hello, HelloOk, ServerMsg};
use crate::tls::{client_config, TlsError, Trust, SERVER_NAME};
use crate::PROTOCOL_VERSION;
use std::net::SocketAddr;
use std::time::Duration;

/// Client's sending half.
pub type ClientSender = FrameWriter<quinn::SendStream, ClientMsg>;
/// Client's receiving half.
pub type ClientReceiver = FrameReader<quinn::RecvStream, ServerMsg>;
/// Server's sending half of one connection.
pub type ServerSender = FrameWriter<crate::shell::SendStream, ServerMsg>;
/// Server's receiving half of one connection.
pub type ServerReceiver = FrameReader<crate::shell::RecvStream, ClientMsg>;

/// Closed normally.
pub const CLOSE_NORMAL: u32 = 0;
/// Refused: authentication or version.
pub const CLOSE_REFUSED: u32 = 1;
/// The peer broke the protocol (e.g. no hello, undecodable stream).
pub const CLOSE_PROTOCOL: u32 = 2;
/// The peer stopped reading: the server could send it nothing for a while
/// with replies waiting (no flow-control credit, no acknowledgements).
/// Network trouble to a client: it connects again.
pub const CLOSE_STALLED: u32 = 3;

/// Time a client allows from connecting to the hello answer.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// Time the server allows a new connection, from the end of the handshake,
/// to send its `Hello`; a connection that has not by then is closed
/// ([`CLOSE_PROTOCOL`], reason `no hello`).
pub const SERVER_HELLO_DEADLINE: Duration = Duration::from_secs(5);

/// Connection failures.
#[derive(Debug, thiserror::Error)]
pub enum ConnError {
    #[error(transparent)]
    Tls(#[from] TlsError),
    #[error("bind client endpoint: {0}")]
    Bind(std::io::Error),
    #[error("connect: {0}")]
    Connect(#[from] quinn::ConnectError),
    #[error("connection: {0}")]
    Connection(#[from] quinn::ConnectionError),
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// The server answered the hello with an error (and closes).
    #[error("refused by server: {} ({})", .0.code, .0.message.id)]
    Refused(ErrorReply),
    /// The peer sent something the protocol does not allow here.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The stream ended.
    #[error("connection closed by peer")]
    Closed,
    #[error("timed out after {0:?}")]
    Timeout(Duration),
}

impl ConnError {
    /// A refusal that trying again cannot change (an unknown token, a
    /// role not allowed, another protocol version, a certificate that does
    /// not match the pinned fingerprint, a TLS setup error): the client
    /// stops and says why. Everything else (no answer, a lost connection,
    /// a server busy or stopping) is network trouble, worth a retry.
    pub fn is_permanent(&self) -> bool {
        match self {
            ConnError::Tls(_) => true,
            ConnError::Refused(e) => matches!(
                e.code,
                ErrorCode::Unauthenticated
                    | ErrorCode::BadVersion { .. }
                    | ErrorCode::Forbidden
                    | ErrorCode::WrongTable
            ),
            ConnError::Connection(quinn::ConnectionError::TransportError(t)) => {
                t.reason.contains(crate::tls::FINGERPRINT_MISMATCH)
            }
            ConnError::Connection(quinn::ConnectionError::VersionMismatch) => true,
            _ => false,
        }
    }
}

/// The UDP receive buffer a client endpoint asks for (1 MiB): a console of
/// a large hall receives bursts of deltas, and a load generator's one
/// endpoint carries the acks of every table it plays ([`crate::udp`]).
pub const CLIENT_RECEIVE_BUFFER: usize = 1 << 20;

/// Opens client connections with one TLS config over one UDP endpoint.
#[derive(Debug, Clone)]
pub struct Connector {
    endpoint: quinn::Endpoint,
    config: quinn::ClientConfig,
}

impl Connector {
    /// A client endpoint on an ephemeral port of the given family (IPv4
    /// when `ipv6` is false). Needs a Tokio runtime.
    pub fn new(trust: &Trust, ipv6: bool) -> Result<Connector, ConnError> {
        let bind: SocketAddr = if ipv6 {
            (std::net::Ipv6Addr::UNSPECIFIED, 0).into()
        } else {
            (std::net::Ipv4Addr::UNSPECIFIED, 0).into()
        };
        let (socket, _) = crate::udp::bind_with_receive_buffer(bind, CLIENT_RECEIVE_BUFFER)
            .map_err(ConnError::Bind)?;
        let runtime = quinn::default_runtime().ok_or_else(|| {
            ConnError::Bind(std::io::Error::other("no async runtime (Tokio) running"))
        })?;
        let endpoint =
            quinn::Endpoint::new(quinn::EndpointConfig::default(), None, socket, runtime)
                .map_err(ConnError::Bind)?;
        Ok(Connector {
            endpoint,
            config: client_config(trust)?,
        })
    }

    /// Over an existing endpoint.
    pub fn with_endpoint(endpoint: quinn::Endpoint, trust: &Trust) -> Result<Connector, ConnError> {
        Ok(Connector {
            endpoint,
            config: client_config(trust)?,
        })
    }

    pub fn endpoint(&self) -> &quinn::Endpoint {
        &self.endpoint
    }

    /// Connects, opens the stream, sends `hello` and waits for `HelloOk`
    /// (within [`HELLO_TIMEOUT`] overall).
    pub async fn connect(&self, addr: SocketAddr, hello: Hello) -> Result<ClientConn, ConnError> {
        match tokio::time::timeout(HELLO_TIMEOUT, self.connect_inner(addr, hello)).await {
            Ok(result) => result,
            Err(_) => Err(ConnError::Timeout(HELLO_TIMEOUT)),
        }
    }

    async fn connect_inner(&self, addr: SocketAddr, hello: Hello) -> Result<ClientConn, ConnError> {
        let connection = self
            .endpoint
            .connect_with(self.config.clone(), addr, SERVER_NAME)?
            .await?;
        let (send, recv) = connection.open_bi().await?;
        let mut sender = FrameWriter::new(send);
        let mut receiver = FrameReader::new(recv);
        sender.send(&ClientMsg::Hello(hello)).await?;
        let answer = receiver.recv().await;
        match answer {
            Ok(Some(ServerMsg::HelloOk(hello_ok))) => Ok(ClientConn {
                connection,
                hello_ok,
                sender,
                receiver,
            }),
            Ok(Some(ServerMsg::Error(err))) => {
                connection.close(CLOSE_REFUSED.into(), b"refused");
                Err(ConnError::Refused(err))
            }
            Ok(Some(other)) => {
                connection.close(CLOSE_PROTOCOL.into(), b"expected HelloOk");
                Err(ConnError::Protocol(format!(
                    "expected HelloOk, got {}",
                    server_msg_name(&other)
                )))
            }
            Ok(None) => Err(closed_reason(&connection)),
            Err(e) => match connection.close_reason() {
                Some(reason) => Err(ConnError::Connection(reason)),
                None => Err(e.into()),
            },
        }
    }
}

fn closed_reason(connection: &quinn::Connection) -> ConnError {
    match connection.close_reason() {
        Some(reason) => ConnError::Connection(reason),
        None => ConnError::Closed,
    }
}

/// Variant name of a server message, for error texts and logs.
pub fn server_msg_name(msg: &ServerMsg) -> &'static str {
    match msg {
        ServerMsg::HelloOk(_) => "HelloOk",
        ServerMsg::Ack(_) => "Ack",
        ServerMsg::Error(_) => "Error",
        ServerMsg::CommandOk { .. } => "CommandOk",
        ServerMsg::Snapshot(_) => "Snapshot",
        ServerMsg::Delta(_) => "Delta",
        ServerMsg::Control { .. } => "Control",
        ServerMsg::TableLog(_) => "TableLog",
        ServerMsg::Pong { .. } => "Pong",
        ServerMsg::TakenOver { .. } => "TakenOver",
        ServerMsg::RoundProposal { .. } => "RoundProposal",
        ServerMsg::SnapshotPage(_) => "SnapshotPage",
        ServerMsg::Deltas(_) => "Deltas",
    }
}

/// Variant name of a client message.
pub fn client_msg_name(msg: &ClientMsg) -> &'static str {
    match msg {
        ClientMsg::Hello(_) => "Hello",
        ClientMsg::Event(_) => "Event",
        ClientMsg::Command { .. } => "Command",
        ClientMsg::Ping { .. } => "Ping",
    }
}

/// Connects with a fresh client endpoint (one-shot form of [`Connector`]).
pub async fn connect(
    addr: SocketAddr,
    trust: &Trust,
    hello: Hello,
) -> Result<ClientConn, ConnError> {
    Connector::new(trust, addr.is_ipv6())?
        .connect(addr, hello)
        .await
}

/// An open, greeted client connection.
pub struct ClientConn {
    pub connection: quinn::Connection,
    /// The server's answer to the hello (role, hall, table session).
    pub hello_ok: HelloOk,
    sender: ClientSender,
    receiver: ClientReceiver,
}

impl ClientConn {
    /// Sends one message (queued frames included) now.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ConnError> {
        Ok(self.sender.send(msg).await?)
    }

    /// Queues a message for the next [`ClientConn::flush`] (batching).
    pub fn queue(&mut self, msg: &ClientMsg) -> Result<(), ConnError> {
        Ok(self.sender.queue(msg)?)
    }

    /// Writes everything queued.
    pub async fn flush(&mut self) -> Result<(), ConnError> {
        Ok(self.sender.flush().await?)
    }

    /// The next server message. Cancel-safe. A frame too large or not
    /// decodable gives `ConnError::Frame` with a recoverable error: the
    /// next call reads on.
    pub async fn recv(&mut self) -> Result<ServerMsg, ConnError> {
        match self.receiver.recv().await {
            Ok(Some(msg)) => Ok(msg),
            Ok(None) => Err(closed_reason(&self.connection)),
            Err(FrameError::Io(e)) => match self.connection.close_reason() {
                Some(reason) => Err(ConnError::Connection(reason)),
                None => Err(FrameError::Io(e).into()),
            },
            Err(e) => Err(e.into()),
        }
    }

    /// The next server message if one is already buffered (no I/O).
    pub fn try_recv_buffered(&mut self) -> Option<Result<ServerMsg, ConnError>> {
        self.receiver
            .try_recv_buffered()
            .map(|r| r.map_err(ConnError::from))
    }

    /// Closes the connection.
    pub fn close(&self, reason: &str) {
        self.connection
            .close(CLOSE_NORMAL.into(), reason.as_bytes());
    }

    /// Splits into halves for separate tasks.
    pub fn split(self) -> (quinn::Connection, HelloOk, ClientSender, ClientReceiver) {
        (self.connection, self.hello_ok, self.sender, self.receiver)
    }
}

/// A server-side connection after a valid `Hello` was read.
pub struct ServerConn {
    pub connection: crate::shell::Connection,
    pub sender: ServerSender,
    pub receiver: ServerReceiver,
}

/// Why a new connection was dropped before authentication.
#[derive(Debug, thiserror::Error)]
pub enum AcceptError {
    #[error("connection: {0}")]
    Connection(#[from] quinn::ConnectionError),
    #[error("no hello within {0:?}")]
    Timeout(Duration),
    #[error("first frame: {0}")]
    Frame(#[from] FrameError),
    #[error("stream ended before hello")]
    Closed,
    #[error("first message was {0}, not Hello")]
    NotHello(&'static str),
    #[error("protocol version {got}, this server speaks {PROTOCOL_VERSION}")]
    BadVersion { got: u16 },
}

/// Accepts the client's stream and reads its hello (within
/// [`SERVER_HELLO_DEADLINE`]). Protocol faults are answered with an
/// `Error` frame whose text is generic (`malformed frame`, `frame too
/// large`: nothing of the decoder's internals goes to a peer that has not
/// signed in; the returned [`AcceptError`] has the details for the log),
/// and the connection is closed before returning the error; a `Hello` of
/// the right version is returned for the server to authenticate.
pub async fn accept_hello(
    connection: crate::shell::Connection,
) -> Result<(ServerConn, Hello), AcceptError> {
    let first = tokio::time::timeout(SERVER_HELLO_DEADLINE, async {
        let (send, recv) = connection.accept_bi().await?;
        let mut receiver: ServerReceiver = FrameReader::new(recv);
        let msg = receiver.recv().await;
        Ok::<_, AcceptError>((send, receiver, msg))
    })
    .await;
    let (send, receiver, msg) = match first {
        Ok(Ok(parts)) => parts,
        Ok(Err(e)) => return Err(e),
        Err(_) => {
            connection.close(CLOSE_PROTOCOL.into(), b"no hello");
            return Err(AcceptError::Timeout(SERVER_HELLO_DEADLINE));
        }
    };
    let conn = ServerConn {
        connection,
        sender: FrameWriter::new(send),
        receiver,
    };
    let (code, message, err) = match msg {
        Ok(Some(ClientMsg::Hello(hello))) if hello.protocol_version == PROTOCOL_VERSION => {
            return Ok((conn, hello));
        }
        Ok(Some(ClientMsg::Hello(hello))) => (
            ErrorCode::BadVersion {
                server: PROTOCOL_VERSION,
            },
            crate::refusals::bad_version(PROTOCOL_VERSION),
            AcceptError::BadVersion {
                got: hello.protocol_version,
            },
        ),
        Ok(Some(other)) => (
            ErrorCode::Unexpected,
            crate::refusals::hello_first(),
            AcceptError::NotHello(client_msg_name(&other)),
        ),
        Ok(None) => {
            conn.connection.close(CLOSE_PROTOCOL.into(), b"no hello");
            return Err(AcceptError::Closed);
        }
        Err(FrameError::TooLarge { len, max }) => (
            ErrorCode::TooLarge {
                limit: u32::try_from(max).unwrap_or(u32::MAX),
            },
            crate::refusals::frame_too_large(len, max),
            AcceptError::Frame(FrameError::TooLarge { len, max }),
        ),
        Err(e @ FrameError::Codec(_)) => (
            ErrorCode::BadFrame,
            crate::refusals::malformed_frame(),
            AcceptError::Frame(e),
        ),
        Err(e) => {
            conn.connection.close(CLOSE_PROTOCOL.into(), b"bad stream");
            return Err(e.into());
        }
    };
    conn.refuse(ErrorReply {
        code,
        message,
        re: None,
    })
    .await;
    Err(err)
}

impl ServerConn {
    /// Sends `error`, finishes the stream, gives the client a moment to
    /// read it, and closes the connection with [`CLOSE_REFUSED`].
    pub async fn refuse(mut self, error: ErrorReply) {
        let sent = self.sender.send(&ServerMsg::Error(error)).await;
        if sent.is_ok() {
            let _ = self.sender.get_mut().finish();
            // The client closes once it has read the error; don't wait long.
            let _ = tokio::time::timeout(Duration::from_secs(2), self.connection.closed()).await;
        }
        self.connection.close(CLOSE_REFUSED.into(), b"refused");
    }
}
