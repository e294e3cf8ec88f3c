//! The page's files (静态资源), embedded in the binary: no CDN and no build
//! step, so a hall without internet serves them. `app.js` is small,
//! hand-written JavaScript (no library); `style.css` lays the boards out
//! from a 360-px phone to a 4K screen.

use std::sync::LazyLock;

use crate::view::Body;

/// How long a browser or a cache may keep an asset (they change only with
/// the binary; the ETag tells a new one).
pub const CACHE_CONTROL: &str = "public, max-age=300";

static APP_JS: LazyLock<Body> = LazyLock::new(|| {
    Body::new(
        include_str!("../assets/app.js").to_string(),
        "text/javascript; charset=utf-8",
    )
});

static STYLE_CSS: LazyLock<Body> = LazyLock::new(|| {
    Body::new(
        include_str!("../assets/style.css").to_string(),
        "text/css; charset=utf-8",
    )
});

/// The asset named `name` (`app.js`, `style.css`).
pub fn get(name: &str) -> Option<&'static Body> {
    match name {
        "app.js" => Some(&APP_JS),
        "style.css" => Some(&STYLE_CSS),
        _ => None,
    }
}
