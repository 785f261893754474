//! `c4lab serve`: serves the Lab's page and engine, embedded in this binary.
//!
//! The HTTP/1.1 server is this file's own: it answers GET and HEAD for a fixed set of
//! embedded files, and it needs limits that tiny_http (used before) does not have: a
//! cap on a request's head, and time limits on every socket. Without them one client
//! that never read its answers stalled every other client, and an endless request line
//! grew the server's memory without bound. hyper has such limits, but it would bring an
//! async runtime into the binary to serve a few dozen files.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use request::{parse, Refusal, Request};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The largest request head (request line and headers) read; a longer one gets 431.
const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to send a whole request head from its first byte, and
/// may stay idle between requests on a kept-alive connection.
const HEAD_TIME: Duration = Duration::from_secs(20);
/// How long one answer may take to write: a client that stops reading, or reads a
/// little now and then, is dropped.
#[cfg(not(test))]
const WRITE_TIME: Duration = Duration::from_secs(20);
/// (A second in the tests, which watch a slow reader dropped.)
#[cfg(test)]
const WRITE_TIME: Duration = Duration::from_secs(1);
/// Connections served at once; one more is answered 503 and closed.
const MAX_CONNECTIONS: usize = 256;

/// An embedded file: its content type, bytes and entity tag.
struct Asset {
    kind: &'static str,
    bytes: &'static [u8],
    tag: &'static str,
}

/// Looks up an embedded file by request path (`/` is `index.html`).
fn asset(path: &str) -> Option<Asset> {
    // each file's tag, worked out once (the engine's SHA-256 takes milliseconds)
    static TAGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let tags = TAGS.get_or_init(|| ASSETS.iter().map(|(_, _, b)| entity_tag(b)).collect());
    let path = if path == "/" { "/index.html" } else { path };
    let i = ASSETS.iter().position(|(p, _, _)| *p == path)?;
    let (_, kind, bytes) = ASSETS[i];
    Some(Asset {
        kind,
        bytes,
        tag: &tags[i],
    })
}

/// A file's entity tag: the start of its SHA-256, quoted (RFC 9110, 8.8.3), so that a
/// browser revalidates its copy and fetches a rebuilt page's changed files anew.
fn entity_tag(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// Whether an `If-None-Match` value names `tag` (or is `*`): weak comparison, as a GET's
/// condition takes it (RFC 9110, 13.1.2).
fn matches_tag(if_none_match: &str, tag: &str) -> bool {
    if_none_match
        .split(',')
        .map(str::trim)
        .any(|given| given == "*" || given.strip_prefix("W/").unwrap_or(given) == tag)
}

/// Headers on every file served: revalidation before each use of a cached copy (its
/// entity tag goes with it), cross-origin isolation, so the page may share memory with
/// its workers (the dsat race lowers a search's ceiling mid-call), and a strict content
/// policy.
const FILE_HEADERS: &str = "Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nCross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\nContent-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:\r\n";

/// Serves on 127.0.0.1 (or `host`) until killed.
pub fn serve(host: &str, port: u16, open: bool) -> Result<u8> {
    if !ENGINE_BUILT {
        bail!("this binary was built without the Lab's WebAssembly engine; build it and the server with scripts/lab");
    }
    let addr = listen_address(host, port)?;
    let listener = TcpListener::bind(&addr).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            " (another server is on that port: try --port, or --port 0 for any free one)"
        } else if e.kind() == std::io::ErrorKind::PermissionDenied && port < 1024 {
            " (ports below 1024 need privileges: try --port 8765, or --port 0 for any free one)"
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
    if bound.ip().to_canonical().is_unspecified() {
        let _ = writeln!(
            std::io::stdout(),
            "note: --host {host} listens on every network interface: whoever can reach this machine can open the page"
        );
    }
    // (an IPv4 address written as IPv6, `::ffff:127.0.0.1`, is loopback too)
    if !bound.ip().to_canonical().is_loopback() {
        // browsers isolate a page (and so share memory with its workers) only on a
        // secure origin: https, or a loopback address
        let _ = writeln!(
            std::io::stdout(),
            "note: a browser on another machine opens the page without cross-origin isolation, so Solve whole root's races stop a losing search, and Stop ends a search, only between its steps"
        );
    }
    if open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        open_browser(opener, &url);
    }
    open_files::raise_limit();
    accept(listener, MAX_CONNECTIONS, HEAD_TIME);
    Ok(0)
}

/// The address to bind for `--host host --port port`: an IPv6 address (`::1`) goes in
/// brackets before the port; a host that already holds a port, or a URL, is refused,
/// since it would read as an IPv6 address and fail to bind with a message about the
/// address.
fn listen_address(host: &str, port: u16) -> Result<String> {
    // a URL's scheme holds a colon, and read as an IPv6 address
    if let Some((scheme, rest)) = host.split_once("://") {
        let authority = rest.split('/').next().unwrap_or(rest);
        let (address, port) = match authority.strip_prefix('[') {
            Some(v6) => v6.split_once(']').unwrap_or((v6, "")),
            None => authority
                .split_once(':')
                .map_or((authority, ""), |(a, p)| (a, p)),
        };
        let port = port.trim_start_matches(':');
        let port = if port.is_empty() {
            String::new()
        } else {
            format!(" --port {port}")
        };
        bail!("--host {host} is a URL: give the address alone (--host {address}{port}), without {scheme}://");
    }
    // `127.0.0.1:9999`, `[::1]:9999`, or a name with one colon and a number after it
    let with_port = host
        .parse::<SocketAddr>()
        .ok()
        .map(|a| (a.ip().to_string(), a.port()))
        .or_else(|| {
            let (name, port) = host.rsplit_once(':')?;
            let port = port.parse::<u16>().ok()?;
            (!name.contains(':')).then(|| (name.to_string(), port))
        });
    if let Some((name, given)) = with_port {
        bail!("--host {host} holds a port: give the address alone and the port to --port (--host {name} --port {given})");
    }
    // any other colon is an IPv6 address's (`::1`, `fe80::1%eth0`)
    Ok(if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    })
}

/// The address to show for `bound`: a wildcard address (`0.0.0.0`, `::`) is no page
/// address, and a browser treats only loopback as a secure origin, so this machine's
/// loopback stands for it; an IPv4 address written as IPv6 (`::ffff:127.0.0.1`, which
/// the socket also answers as IPv4) is shown as IPv4: a browser holds
/// `[::ffff:127.0.0.1]` no secure origin, and opened the page there without
/// cross-origin isolation.
fn page_address(bound: SocketAddr) -> SocketAddr {
    match bound.ip().to_canonical() {
        IpAddr::V4(ip) if ip.is_unspecified() => (Ipv4Addr::LOCALHOST, bound.port()).into(),
        IpAddr::V6(ip) if ip.is_unspecified() => (Ipv6Addr::LOCALHOST, bound.port()).into(),
        ip => (ip, bound.port()).into(),
    }
}

/// Asks `opener` to open `url` in a browser, and says so when it cannot: it is not
/// there, or it ends with a failure (xdg-open without a browser to start), which it does
/// while the server runs, so a thread waits for it.
fn open_browser(opener: &'static str, url: &str) {
    let failed = move |why: String, url: &str| {
        sayln!("could not open a browser ({opener} {why}); open {url} yourself");
    };
    // (its own chatter, and a missing browser's seven lines from xdg-open, would bury
    // the banner: a failure is said below, once)
    match std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => failed(format!("ended with {status}"), &url),
                Ok(_) => {}
                Err(e) => failed(format!("could not be waited for: {e}"), &url),
            });
        }
        Err(e) => failed(format!("could not start: {e}"), url),
    }
}

/// Serves every connection in a thread of its own, up to `most` at once (the server's
/// [`MAX_CONNECTIONS`]), each request head given `head_time` (the server's [`HEAD_TIME`]).
fn accept(listener: TcpListener, most: usize, head_time: Duration) {
    let open = Arc::new(AtomicUsize::new(0));
    let mut warned = false;
    for stream in listener.incoming() {
        let mut stream = match stream {
            Ok(stream) => stream,
            Err(e) => {
                if let Some(why) = open_files::shortage(&e) {
                    // the connection waits in the queue until a file is free, and the
                    // loop pauses rather than spin on it
                    if !std::mem::replace(&mut warned, true) {
                        sayln!("warning: cannot take a connection ({e}){why}; it waits until another closes (said once)");
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                // else a connection that failed before it was accepted (a reset, or a
                // network error the system passes on) is the client's problem
                continue;
            }
        };
        if open.load(Ordering::Relaxed) >= most {
            turn_away(&mut stream);
            continue;
        }
        // counted out when the thread ends, however it ends (only this thread counts in)
        let slot = Slot::take(&open);
        let _ = std::thread::Builder::new()
            .name("serve".into())
            .spawn(move || {
                let _slot = slot;
                // a client that hung up, or timed out, ends its own connection only
                let _ = connection(stream, head_time);
            });
    }
}

/// Answers a connection past [`MAX_CONNECTIONS`] 503 on the accepting thread, so within
/// moments: what of the request has come within 50 ms is read (a HEAD gets no body,
/// and input left unread could reset the connection and lose the answer; a request
/// that comes later, or in pieces, may still get the body), then it is closed.
fn turn_away(stream: &mut TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(50)));
    let mut start = [0u8; 16 * 1024];
    let n = stream.read(&mut start).unwrap_or(0);
    let request = start[..n]
        .iter()
        .position(|b| !matches!(b, b'\r' | b'\n'))
        .map_or(&start[..0], |i| &start[i..n]);
    let head_only = request.starts_with(b"HEAD ");
    let within = Duration::from_millis(200);
    let _ = respond_error(
        stream,
        (503, "Service Unavailable", "Retry-After: 1\r\n"),
        head_only,
        within,
    );
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

/// One open connection in the count; dropping it counts the connection out.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(open: &Arc<AtomicUsize>) -> Slot {
        open.fetch_add(1, Ordering::Relaxed);
        Slot(Arc::clone(open))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves the requests of one connection until it closes, errs or asks to close.
fn connection(stream: TcpStream, head_time: Duration) -> std::io::Result<()> {
    let _ = stream.set_nodelay(true);
    // reads and writes share the one socket (a clone took a second file descriptor)
    let out = &stream;
    let mut input = BufReader::new(&stream);
    loop {
        let head = match read_head(&mut input, head_time)? {
            Head::Whole(head) => head,
            Head::Closed => return Ok(()),
            // a request begun and not finished in time is told so before the close
            Head::Late(part) => {
                let head_only = part.starts_with(b"HEAD ");
                respond_error(out, (408, "Request Timeout", ""), head_only, WRITE_TIME)?;
                return linger(&mut input, out);
            }
        };
        match parse(&head) {
            Ok(req) => {
                respond(out, &req)?;
                if !req.keep_alive {
                    return linger(&mut input, out);
                }
            }
            Err(refusal) => {
                respond_error(out, refusal, head.starts_with(b"HEAD "), WRITE_TIME)?;
                return linger(&mut input, out);
            }
        }
    }
}

/// Closes a connection whose client may still be sending (a request body, or further
/// requests): what arrives is read and dropped for a moment, since a close with unread
/// input resets the connection, and the client could lose the answer with it.
fn linger(input: &mut BufReader<&TcpStream>, out: &TcpStream) -> std::io::Result<()> {
    out.shutdown(std::net::Shutdown::Write)?;
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut sink = [0u8; 16 * 1024];
    let mut dropped = 0;
    while dropped < (1 << 20) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        input.get_ref().set_read_timeout(Some(left))?;
        match input.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => dropped += n,
        }
    }
    Ok(())
}

/// Whether `head` ends with its blank line (`\r\n\r\n`, or a bare `\n` in either).
fn head_ended(head: &[u8]) -> bool {
    head.ends_with(b"\n\n") || head.ends_with(b"\n\r\n")
}

/// How reading a request head ended.
enum Head {
    /// The head, up to its blank line (an over-long one cut at [`MAX_HEAD`] + 1 bytes,
    /// for [`parse`] to refuse).
    Whole(Vec<u8>),
    /// The client closed, or stayed idle for the head time, before a request began.
    Closed,
    /// A request began (its part so far) but its head did not end within the head time
    /// of its first byte.
    Late(Vec<u8>),
}

/// Reads a request head up to its blank line: the client may stay idle for `head_time`
/// before it, and take `head_time` from its first byte to its end.
fn read_head(input: &mut BufReader<&TcpStream>, head_time: Duration) -> std::io::Result<Head> {
    let mut deadline = Instant::now() + head_time;
    let mut began = false;
    let mut head = Vec::new();
    // (blank lines before a request line are no request yet)
    let out_of_time = |head: Vec<u8>| {
        if head.is_empty() {
            Head::Closed
        } else {
            Head::Late(head)
        }
    };
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(out_of_time(head));
        }
        input.get_ref().set_read_timeout(Some(left))?;
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Ok(out_of_time(head))
            }
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(Head::Closed);
        }
        // up to and including the byte that ends the head, if it is here
        let mut used = buf.len();
        for (i, &b) in buf.iter().enumerate() {
            head.push(b);
            // blank lines before a request line are allowed (RFC 9112, 2.2)
            if b == b'\n' && head.iter().all(|b| matches!(b, b'\r' | b'\n')) {
                head.clear();
                continue;
            }
            if (b == b'\n' && head_ended(&head)) || head.len() > MAX_HEAD {
                used = i + 1;
                break;
            }
        }
        input.consume(used);
        if head_ended(&head) || head.len() > MAX_HEAD {
            return Ok(Head::Whole(head));
        }
        // the head's time runs from its first byte (an idle kept-alive client that
        // sent its next request late, in two packets, got 408)
        if !began && !head.is_empty() {
            began = true;
            deadline = Instant::now() + head_time;
        }
    }
}

/// Writes `bytes` within [`WRITE_TIME`] in all: a client that reads a little now and
/// then cannot hold its connection for long.
fn write_within(mut out: &TcpStream, bytes: &[u8], deadline: Instant) -> std::io::Result<()> {
    for chunk in bytes.chunks(64 * 1024) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        out.set_write_timeout(Some(left))?;
        out.write_all(chunk)?;
    }
    Ok(())
}

/// Answers a parsed request: the file, or 404.
fn respond(out: &TcpStream, req: &Request) -> std::io::Result<()> {
    let connection = if req.keep_alive {
        "keep-alive"
    } else {
        "close"
    };
    let Some(Asset { kind, bytes, tag }) = asset(&req.path) else {
        let body = b"404 Not Found\n";
        let head = format!(
            "HTTP/1.1 404 Not Found\r\nDate: {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: {connection}\r\n\r\n",
            now(),
            body.len()
        );
        return send(out, &head, body, req.head_only);
    };
    // the browser's copy is this file: no body, the same validators (RFC 9110, 15.4.5)
    if req
        .if_none_match
        .as_deref()
        .is_some_and(|given| matches_tag(given, tag))
    {
        let head = format!(
            "HTTP/1.1 304 Not Modified\r\nDate: {}\r\nETag: {tag}\r\nConnection: {connection}\r\n{FILE_HEADERS}\r\n",
            now()
        );
        return send(out, &head, &[], true);
    }
    let head = format!(
        "HTTP/1.1 200 OK\r\nDate: {}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nETag: {tag}\r\nConnection: {connection}\r\n{FILE_HEADERS}\r\n",
        now(),
        bytes.len()
    );
    send(out, &head, bytes, req.head_only)
}

/// Writes a response's head and (unless `head_only`) its body within [`WRITE_TIME`].
fn send(mut out: &TcpStream, head: &str, body: &[u8], head_only: bool) -> std::io::Result<()> {
    let deadline = Instant::now() + WRITE_TIME;
    write_within(out, head.as_bytes(), deadline)?;
    if !head_only {
        write_within(out, body, deadline)?;
    }
    out.flush()
}

/// The time as a Date header gives it (a server with a clock sends one: RFC 9110,
/// 6.6.1).
fn now() -> String {
    let now = std::time::SystemTime::now();
    // (the formatter cannot write a time before 1970: a clock set that far back sends
    // the epoch)
    httpdate::fmt_http_date(now.max(std::time::UNIX_EPOCH))
}

/// Answers a refused request (with no body to a HEAD) within `within`, and asks to close.
fn respond_error(
    mut out: &TcpStream,
    (code, reason, extra): Refusal,
    head_only: bool,
    within: Duration,
) -> std::io::Result<()> {
    let body = format!("{code} {reason}\n");
    let head = format!(
        "HTTP/1.1 {code} {reason}\r\nDate: {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        now(),
        body.len()
    );
    let deadline = Instant::now() + within;
    write_within(out, head.as_bytes(), deadline)?;
    if !head_only {
        write_within(out, body.as_bytes(), deadline)?;
    }
    out.flush()
}

mod open_files;
mod request;
#[cfg(test)]
mod tests;
