//! A small WebDriver client (W3C WebDriver over HTTP/1.1 to a local
//! `chromedriver`) for the browser test: start Debian's `chromium`
//! headless, open URLs, run a script, click, read text, take screenshots.
//! Blocking std I/O on loopback; every answer is checked for a WebDriver
//! error, which panics naming the command.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The apt packages the browser test needs.
pub const PACKAGES: &str = "chromium chromium-driver fonts-noto-cjk";

/// A running chromedriver (killed on drop).
pub struct Driver {
    child: Child,
    addr: SocketAddr,
}

/// The first of `names` found on PATH (or as an absolute path).
fn find(names: &[&str]) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names.iter().find_map(|n| {
        if Path::new(n).is_absolute() && Path::new(n).exists() {
            return Some(Path::new(n).to_path_buf());
        }
        std::env::split_paths(&path)
            .map(|d| d.join(n))
            .find(|p| p.exists())
    })
}

impl Driver {
    /// Starts chromedriver on a free loopback port. No Chromium on this
    /// machine is a failure naming the packages, never a skip.
    pub fn start() -> Driver {
        let (Some(driver), Some(_)) = (
            find(&["chromedriver", "/usr/lib/chromium/chromedriver"]),
            find(&["chromium", "chromium-browser"]),
        ) else {
            panic!(
                "the browser test needs Chromium and its WebDriver: \
                 apt-get install {PACKAGES} (.ci/run installs them)"
            );
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let d = Driver { child, addr };
        let t0 = Instant::now();
        loop {
            if let Ok(v) = d.try_request("GET", "/status", None) {
                if v["value"]["ready"] == true {
                    return d;
                }
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "chromedriver did not get ready"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn try_request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> std::io::Result<Value> {
        let mut s = TcpStream::connect(self.addr)?;
        s.set_read_timeout(Some(Duration::from_secs(60)))?;
        let text = body.map(Value::to_string).unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n{text}",
            self.addr,
            text.len()
        )?;
        // chromedriver keeps the connection open: read the head, then
        // Content-Length bytes (or chunks up to the last one).
        let mut raw = Vec::new();
        let mut buf = [0u8; 8192];
        let payload = loop {
            let n = s.read(&mut buf)?;
            raw.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&raw).to_string();
            if let Some((head, rest)) = text.split_once("\r\n\r\n") {
                let lower = head.to_ascii_lowercase();
                let length = lower
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok());
                match length {
                    Some(len) if rest.len() >= len => break rest[..len].to_string(),
                    None if lower.contains("chunked") && rest.ends_with("0\r\n\r\n") => {
                        break dechunk(rest)
                    }
                    _ => {}
                }
            }
            if n == 0 {
                return Err(std::io::Error::other("the connection closed early"));
            }
        };
        serde_json::from_str(&payload).map_err(std::io::Error::other)
    }

    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let v = self
            .try_request(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        if let Some(err) = v["value"]["error"].as_str() {
            panic!(
                "{method} {path}: {err}: {}",
                v["value"]["message"].as_str().unwrap_or("")
            );
        }
        v["value"].clone()
    }

    /// A new headless Chromium session of `width` x `height` CSS pixels
    /// (under 500 wide: an emulated phone); `javascript: false` opens
    /// pages with scripts off.
    pub fn session(&self, javascript: bool, width: u32, height: u32) -> Session<'_> {
        let mut prefs = json!({});
        if !javascript {
            prefs["profile.managed_default_content_settings.javascript"] = json!(2);
        }
        let mut caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": find(&["chromium", "chromium-browser"]).map(|p| p.display().to_string()),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--hide-scrollbars",
                         format!("--window-size={width},{height}")],
                "prefs": prefs,
            }
        }}});
        // A window is at least 500 px wide: narrower is a phone, emulated.
        if width < 500 {
            caps["capabilities"]["alwaysMatch"]["goog:chromeOptions"]["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2.0, "touch": true }
            });
        }
        let v = self.request("POST", "/session", Some(&caps));
        let id = v["sessionId"].as_str().expect("a session id").to_string();
        Session { d: self, id }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// One browser window.
pub struct Session<'a> {
    d: &'a Driver,
    id: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Session<'_> {
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.d.request(
            method,
            &format!("/session/{}{path}", self.id),
            body.as_ref(),
        )
    }

    /// Opens `url` (returns when the document has loaded).
    pub fn open(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    /// The current URL.
    pub fn url(&self) -> String {
        self.cmd("GET", "/url", None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Runs `script` (a function body; `return` gives the value).
    pub fn run(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    fn element(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {v}"))
            .to_string()
    }

    /// The rendered text of the first element matching `css`.
    pub fn text(&self, css: &str) -> String {
        let e = self.element(css);
        self.cmd("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Clicks the first element matching `css`.
    pub fn click(&self, css: &str) {
        let e = self.element(css);
        self.cmd("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    /// The page's HTML as the browser holds it.
    pub fn source(&self) -> String {
        self.cmd("GET", "/source", None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// A PNG screenshot of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        use base64::Engine as _;
        let b64 = self.cmd("GET", "/screenshot", None);
        base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap_or(""))
            .expect("a base64 PNG")
    }

    /// Polls `script` until it returns something truthy (not false, null,
    /// 0 or ""), for up to `secs`; panics naming `what` and the last value.
    pub fn until(&self, what: &str, secs: u64, script: &str) -> Value {
        let t0 = Instant::now();
        loop {
            let v = self.run(script);
            let truthy = !(v.is_null() || v == json!(false) || v == json!(0) || v == json!(""));
            if truthy {
                return v;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(secs),
                "the page did not show {what} within {secs} s (last: {v})"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self
            .d
            .try_request("DELETE", &format!("/session/{}", self.id), None);
    }
}
