//! `c4lab serve`: serves the Lab's page and engine, embedded in this binary.
//!
//! The HTTP/1.1 server is this file's own: it answers GET and HEAD for a fixed set of
//! embedded files, and it needs limits that tiny_http (used before) does not have: a
//! cap on a request's head, and time limits on every socket. Without them one client
//! that never read its answers stalled every other client, and an endless request line
//! grew the server's memory without bound. hyper has such limits, but it would bring an
//! async runtime into the binary to serve a few dozen files.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The largest request head (request line and headers) read; a longer one gets 431.
const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to send a whole request head, and may stay idle
/// between requests on a kept-alive connection.
const HEAD_TIME: Duration = Duration::from_secs(20);
/// How long one write to a client may block: a client that stops reading is dropped.
const WRITE_TIME: Duration = Duration::from_secs(20);
/// Connections served at once; one more is answered 503 and closed.
const MAX_CONNECTIONS: usize = 64;

/// Looks up an embedded file by request path (`/` is `index.html`).
fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = if path == "/" { "/index.html" } else { path };
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, kind, bytes)| (*kind, *bytes))
}

/// Headers on every file served: cross-origin isolation, so the page may share memory
/// with its workers (the dsat race lowers a search's ceiling mid-call), and a strict
/// content policy.
const FILE_HEADERS: &str = "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nCross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\nContent-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:\r\n";

/// Serves on 127.0.0.1 (or `host`) until killed.
pub fn serve(host: &str, port: u16, open: bool) -> Result<u8> {
    if !ENGINE_BUILT {
        bail!("this binary was built without the Lab's WebAssembly engine; build it and the server with scripts/lab");
    }
    // an IPv6 host (`::1`) goes in brackets before the port
    let addr = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let listener = TcpListener::bind(&addr).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            " (another server is on that port: try --port, or --port 0 for any free one)"
        } else {
            " (check --host: an address of this machine, such as 127.0.0.1 or ::1)"
        };
        anyhow!("cannot listen on {addr}: {e}{hint}")
    })?;
    // the address bound, not the one asked for: with port 0 the system picks a free one
    let bound = listener.local_addr()?;
    let url = format!("http://{}/", page_address(bound));
    // the banner is a courtesy: a server whose output was closed still serves
    let _ = writeln!(std::io::stdout(), "the Lab is at {url} (Ctrl-C stops it)");
    if !bound.ip().is_loopback() {
        // browsers isolate a page (and so share memory with its workers) only on a
        // secure origin: https, or a loopback address
        let _ = writeln!(
            std::io::stdout(),
            "note: a browser on another machine opens the page without cross-origin isolation, so Solve root's races stop a losing search only between its steps"
        );
    }
    if open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
            eprintln!("could not open a browser ({opener}: {e}); open {url} yourself");
        }
    }
    accept(listener);
    Ok(0)
}

/// The address to show for `bound`: a wildcard address (`0.0.0.0`, `::`) is no page
/// address, and a browser treats only loopback as a secure origin, so this machine's
/// loopback stands for it.
fn page_address(bound: SocketAddr) -> SocketAddr {
    match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => (Ipv4Addr::LOCALHOST, bound.port()).into(),
        IpAddr::V6(ip) if ip.is_unspecified() => (Ipv6Addr::LOCALHOST, bound.port()).into(),
        _ => bound,
    }
}

/// Serves every connection in a thread of its own, up to [`MAX_CONNECTIONS`] at once.
fn accept(listener: TcpListener) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        // a connection that failed before it was accepted is the client's problem
        let Ok(mut stream) = stream else { continue };
        if open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = respond_error(&mut stream, 503, "Service Unavailable", "");
            continue;
        }
        open.fetch_add(1, Ordering::Relaxed);
        let count = Arc::clone(&open);
        let spawned = std::thread::Builder::new()
            .name("serve".into())
            .spawn(move || {
                // a client that hung up, or timed out, ends its own connection only
                let _ = connection(stream);
                count.fetch_sub(1, Ordering::Relaxed);
            });
        if spawned.is_err() {
            // the thread never ran, so it cannot count itself out
            open.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// One request, as far as this server reads it.
struct Request {
    method: String,
    path: String,
    keep_alive: bool,
}

/// Why a request head was refused: the status and its reason phrase.
type Refusal = (u16, &'static str, &'static str);

/// Serves the requests of one connection until it closes, errs or asks to close.
fn connection(stream: TcpStream) -> std::io::Result<()> {
    stream.set_write_timeout(Some(WRITE_TIME))?;
    let _ = stream.set_nodelay(true);
    let mut out = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    loop {
        let Some(head) = read_head(&mut input)? else {
            return Ok(());
        };
        match parse(&head) {
            Ok(req) => {
                respond(&mut out, &req)?;
                if !req.keep_alive {
                    return Ok(());
                }
            }
            Err((code, reason, allow)) => {
                respond_error(&mut out, code, reason, allow)?;
                // what the client still sends is read and dropped for a moment: a close
                // with unread input resets the connection, and the client could lose
                // the answer with it
                out.shutdown(std::net::Shutdown::Write)?;
                let deadline = Instant::now() + Duration::from_secs(1);
                let mut sink = [0u8; 16 * 1024];
                let mut dropped = 0;
                while Instant::now() < deadline && dropped < (1 << 20) {
                    input
                        .get_ref()
                        .set_read_timeout(Some(Duration::from_millis(100)))?;
                    match input.read(&mut sink) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => dropped += n,
                    }
                }
                return Ok(());
            }
        }
    }
}

/// Reads a request head up to its blank line: `None` when the client closed (or went
/// idle past [`HEAD_TIME`]) before sending one; an over-long head is cut at
/// [`MAX_HEAD`] + 1 bytes, for [`parse`] to refuse.
fn read_head(input: &mut BufReader<TcpStream>) -> std::io::Result<Option<Vec<u8>>> {
    let deadline = Instant::now() + HEAD_TIME;
    let mut head = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        input.get_ref().set_read_timeout(Some(left))?;
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(None)
            }
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(None);
        }
        // up to and including the first byte that ends the head, if it is here
        let mut used = buf.len();
        for (i, &b) in buf.iter().enumerate() {
            head.push(b);
            if b == b'\n' && (head.ends_with(b"\r\n\r\n") || head.ends_with(b"\n\n")) {
                used = i + 1;
                break;
            }
            if head.len() > MAX_HEAD {
                used = i + 1;
                break;
            }
        }
        input.consume(used);
        let ended = head.ends_with(b"\n\n") || head.ends_with(b"\r\n\r\n");
        if ended || head.len() > MAX_HEAD {
            // blank lines before a request line are allowed (RFC 9112, 2.2)
            if ended && head.iter().all(|b| matches!(b, b'\r' | b'\n')) {
                head.clear();
                continue;
            }
            return Ok(Some(head));
        }
    }
}

/// Reads a request head: GET or HEAD of an origin-form (`/app.js`) or absolute-form
/// (`http://host/app.js`) target, percent-decoded, without its query.
fn parse(head: &[u8]) -> Result<Request, Refusal> {
    if head.len() > MAX_HEAD {
        return Err((431, "Request Header Fields Too Large", ""));
    }
    let bad = (400, "Bad Request", "");
    let text = std::str::from_utf8(head).map_err(|_| bad)?;
    // blank lines before a request line are allowed (RFC 9112, 2.2)
    let text = text.trim_start_matches(['\r', '\n']);
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    let line = lines.next().ok_or(bad)?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad);
    };
    let keep_alive_default = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        v if v.starts_with("HTTP/") => return Err((505, "HTTP Version Not Supported", "")),
        _ => return Err(bad),
    };
    let mut host = false;
    let mut keep_alive = keep_alive_default;
    let mut body = false;
    for l in lines.filter(|l| !l.is_empty()) {
        let (name, value) = l.split_once(':').ok_or(bad)?;
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "host" => host = true,
            "connection" if value.eq_ignore_ascii_case("close") => keep_alive = false,
            "connection" if value.eq_ignore_ascii_case("keep-alive") => keep_alive = true,
            "content-length" => body |= value != "0",
            "transfer-encoding" => body = true,
            _ => {}
        }
    }
    // HTTP/1.1 requires Host (RFC 9112, 3.2)
    if version == "HTTP/1.1" && !host {
        return Err(bad);
    }
    if method != "GET" && method != "HEAD" {
        return Err((405, "Method Not Allowed", "Allow: GET, HEAD\r\n"));
    }
    let path = if target.starts_with('/') {
        target
    } else {
        // absolute form: the path after the authority
        let rest = target
            .strip_prefix("http://")
            .or_else(|| target.strip_prefix("https://"))
            .ok_or(bad)?;
        rest.find('/').map_or("/", |i| &rest[i..])
    };
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let path = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .map_err(|_| bad)?
        .into_owned();
    Ok(Request {
        method: method.to_string(),
        path,
        // a body this server does not read would be taken for the next request
        keep_alive: keep_alive && !body,
    })
}

/// Answers a parsed request: the file, or 404.
fn respond(out: &mut TcpStream, req: &Request) -> std::io::Result<()> {
    let connection = if req.keep_alive {
        "keep-alive"
    } else {
        "close"
    };
    let (status, kind, extra, body): (&str, &str, &str, &[u8]) = match asset(&req.path) {
        Some((kind, bytes)) => ("200 OK", kind, FILE_HEADERS, bytes),
        None => (
            "404 Not Found",
            "text/plain; charset=utf-8",
            "",
            b"not found",
        ),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: {connection}\r\n{extra}\r\n",
        body.len()
    );
    out.write_all(head.as_bytes())?;
    if req.method != "HEAD" {
        out.write_all(body)?;
    }
    out.flush()
}

/// Answers a refused request and closes the connection.
fn respond_error(out: &mut TcpStream, code: u16, reason: &str, extra: &str) -> std::io::Result<()> {
    let body = format!("{code} {reason}\n");
    let head = format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        body.len()
    );
    out.write_all(head.as_bytes())?;
    out.write_all(body.as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests;
