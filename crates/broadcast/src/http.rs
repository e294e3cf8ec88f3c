//! The public routes (公开接口): read-only, no token, GET (and HEAD) only.
//! Every feed answers from the published view: a strong `ETag`, `304` to a
//! matching `If-None-Match`, a `Cache-Control` that lets a cache in front
//! serve many followers, UTF-8 with the charset named; an unknown round,
//! table or path is `404`, a path too long `414`, and no redirect
//! anywhere.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use std::collections::HashMap;

use axum::extract::Query;

use crate::assets;
use crate::hub::Outputs;
use crate::notation::Notation;
use crate::page::{self, Choice, Page};
use crate::view::Body;
use crate::view::View;
use crate::words::{self, Words};

/// Content type of the pages.
pub const HTML: &str = "text/html; charset=utf-8";

/// The pages' Content-Security-Policy: their own script and style only,
/// nothing inline that could run, no other origin.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// How long a cache in front may serve a body without asking again.
pub const CACHE_CONTROL: &str = "public, max-age=1";

/// The keep-alive comment interval of `/events`.
pub use crate::sse::KEEP_ALIVE;

/// The longest request path answered (longer: 414).
pub const MAX_PATH: usize = 256;

/// The routes.
pub fn router(out: Arc<Outputs>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/board/{t}", get(board))
        .route("/pairings", get(pairings_page))
        .route("/display", get(display))
        .route("/assets/{name}", get(asset))
        .route("/state.json", get(state))
        .route("/pairings.json", get(pairings))
        .route("/events", get(events))
        .route("/round/{file}", get(round_file))
        .route("/round/{n}/{file}", get(round_dir))
        .fallback(not_found)
        .layer(axum::middleware::from_fn(guard))
        .with_state(out)
}

/// Long paths are refused before routing; every answer says what it is.
async fn guard(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if req.uri().path().len() > MAX_PATH || req.uri().query().is_some_and(|q| q.len() > MAX_PATH) {
        return (StatusCode::URI_TOO_LONG, "the path is too long\n").into_response();
    }
    let mut res = next.run(req).await;
    res.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    res
}

fn not_ready() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "2")],
        "the broadcast starts after its delay\n",
    )
        .into_response()
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found\n").into_response()
}

fn view(out: &Outputs) -> Option<Arc<View>> {
    out.view.borrow().clone()
}

/// A body, or `304` when `If-None-Match` names its ETag.
fn answer(headers: &HeaderMap, body: &Body) -> Response {
    answer_for(headers, body, CACHE_CONTROL)
}

/// [`answer`] with its own `Cache-Control`.
fn answer_for(headers: &HeaderMap, body: &Body, cache_control: &'static str) -> Response {
    let matches = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| {
            let t = t.trim();
            t == "*" || t == body.etag
        });
    let etag = HeaderValue::from_str(&body.etag).unwrap_or(HeaderValue::from_static("\"\""));
    if matches {
        return (
            StatusCode::NOT_MODIFIED,
            [
                (header::ETAG, etag),
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static(cache_control),
                ),
            ],
        )
            .into_response();
    }
    (
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(body.content_type),
            ),
            (header::ETAG, etag),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static(cache_control),
            ),
        ],
        body.bytes.clone(),
    )
        .into_response()
}

/// The page's choices from the query and `Accept-Language`; a bad one is
/// a `400` naming it.
fn choice(
    out: &Outputs,
    query: &HashMap<String, String>,
    headers: &HeaderMap,
) -> Result<Choice, String> {
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    let lang = words::choose(query.get("lang").map(String::as_str), accept)?;
    let notation = match query.get("notation") {
        Some(n) => Notation::from_key(n).ok_or_else(|| {
            format!(
                "unknown notation {:?}: use zh, wxf or iccs",
                n.chars().take(32).collect::<String>()
            )
        })?,
        None if lang.is_chinese() => Notation::Chinese,
        None => Notation::Wxf,
    };
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    Ok(Choice {
        words: Words::of(lang),
        notation,
        now_ms,
        delay_ms: out.delay_ms,
    })
}

/// A page of the view, as HTML (a `304` to its ETag).
fn html(
    out: &Outputs,
    page: Page,
    query: &HashMap<String, String>,
    headers: &HeaderMap,
) -> Response {
    let Some(v) = view(out) else {
        return not_ready();
    };
    let c = match choice(out, query, headers) {
        Ok(c) => c,
        Err(text) => return (StatusCode::BAD_REQUEST, format!("{text}\n")).into_response(),
    };
    let Some(text) = page::render(&v, page, &c) else {
        return (StatusCode::NOT_FOUND, "no such board in this round\n").into_response();
    };
    // The render time is in the page; the ETag is of the rest, so an
    // unchanged view still answers 304.
    let etag_of = text.replace(&format!("data-now=\"{}\"", c.now_ms), "");
    let mut body = Body::new(text, HTML);
    body.etag = Body::new(etag_of, HTML).etag;
    let mut res = answer(headers, &body);
    let h = res.headers_mut();
    h.insert(header::VARY, HeaderValue::from_static("Accept-Language"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    res
}

async fn index(
    State(out): State<Arc<Outputs>>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    html(&out, Page::Index, &q, &headers)
}

async fn board(
    State(out): State<Arc<Outputs>>,
    Path(t): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    match number(&t).and_then(|t| u16::try_from(t).ok()) {
        Some(t) => html(&out, Page::Board(t), &q, &headers),
        None => not_found().await,
    }
}

async fn pairings_page(
    State(out): State<Arc<Outputs>>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    html(&out, Page::Pairings, &q, &headers)
}

async fn display(
    State(out): State<Arc<Outputs>>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    html(&out, Page::Display, &q, &headers)
}

async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match assets::get(&name) {
        Some(body) => answer_for(&headers, body, assets::CACHE_CONTROL),
        None => not_found().await,
    }
}

async fn state(State(out): State<Arc<Outputs>>, headers: HeaderMap) -> Response {
    match view(&out) {
        Some(v) => answer(&headers, v.state()),
        None => not_ready(),
    }
}

async fn pairings(State(out): State<Arc<Outputs>>, headers: HeaderMap) -> Response {
    match view(&out) {
        Some(v) => answer(&headers, v.pairings()),
        None => not_ready(),
    }
}

/// A round number as written in a path (digits only, no sign, no zeros
/// before it).
fn number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 5 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if text.len() > 1 && text.starts_with('0') {
        return None;
    }
    text.parse().ok()
}

async fn round_file(
    State(out): State<Arc<Outputs>>,
    Path(file): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some(n) = file.strip_suffix(".pgn").and_then(number) else {
        return not_found().await;
    };
    let Some(v) = view(&out) else {
        return not_ready();
    };
    if n != v.round {
        return not_found().await;
    }
    answer(&headers, v.pgn())
}

async fn round_dir(
    State(out): State<Arc<Outputs>>,
    Path((n, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let Some(n) = number(&n) else {
        return not_found().await;
    };
    let Some(v) = view(&out) else {
        return not_ready();
    };
    if n != v.round {
        return not_found().await;
    }
    if file == "index.json" {
        return answer(&headers, v.index());
    }
    let table = file
        .strip_prefix("game-")
        .and_then(|f| f.strip_suffix(".json"))
        .and_then(number)
        .and_then(|t| u16::try_from(t).ok());
    match table.and_then(|t| v.game(t)) {
        Some(body) => answer(&headers, body),
        None => not_found().await,
    }
}

async fn events(State(out): State<Arc<Outputs>>, headers: HeaderMap) -> Response {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(crate::sse::parse_last_event_id);
    match crate::sse::follow(out, last) {
        Some(stream) => (
            [
                (header::CONTENT_TYPE, "text/event-stream"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            axum::body::Body::from_stream(stream),
        )
            .into_response(),
        None => not_ready(),
    }
}
