//! The server against raw requests, as browsers and bad clients send them.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use super::*;

/// A server on a free loopback port, serving until the test process ends.
fn start() -> SocketAddr {
    start_with(MAX_CONNECTIONS)
}

/// A server that serves at most `most` connections at once.
fn start_with(most: usize) -> SocketAddr {
    start_timed(most, HEAD_TIME)
}

/// A server that serves at most `most` connections at once, each request head given
/// `head_time`.
fn start_timed(most: usize, head_time: Duration) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || accept(listener, most, head_time));
    addr
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Sends `raw` and reads the answer until the server closes the connection.
fn exchange(addr: SocketAddr, raw: &[u8]) -> Vec<u8> {
    let mut s = connect(addr);
    s.write_all(raw).unwrap();
    let mut got = Vec::new();
    s.read_to_end(&mut got).unwrap();
    got
}

fn text(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw).into_owned()
}

fn index() -> &'static [u8] {
    asset("/index.html").expect("the page is embedded").bytes
}

#[test]
fn get_and_head_serve_the_page_with_its_isolation_headers() {
    let addr = start();
    let got = exchange(
        addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    let head = text(&got[..got.len() - index().len()]);
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    for h in [
        "Cross-Origin-Opener-Policy: same-origin",
        "Cross-Origin-Embedder-Policy: require-corp",
        "Content-Type: text/html; charset=utf-8",
        &format!("Content-Length: {}", index().len()),
    ] {
        assert!(head.contains(h), "{h}: {head}");
    }
    assert!(got.ends_with(index()));
    // HEAD: the same length, no body (it used to be sent chunked, without a length)
    let got = text(&exchange(
        addr,
        b"HEAD /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ));
    assert!(
        got.contains(&format!("Content-Length: {}", index().len())),
        "{got}"
    );
    assert!(got.ends_with("\r\n\r\n"), "{got}");
}

#[test]
fn a_copy_the_browser_holds_is_revalidated_by_its_entity_tag() {
    let addr = start();
    let got = text(&exchange(
        addr,
        b"HEAD /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ));
    // a cached copy is checked before each use (no-store kept none, so the engine's
    // 820 KB came anew on every load)
    assert!(got.contains("Cache-Control: no-cache\r\n"), "{got}");
    let tag = got
        .lines()
        .find_map(|l| l.strip_prefix("ETag: "))
        .expect("an entity tag")
        .to_string();
    assert!(
        tag.starts_with('"') && tag.ends_with('"') && tag.len() == 26,
        "{tag}"
    );
    // the file of that tag: 304, no body; as a weak tag, among others, or `*` alike
    for given in [tag.clone(), format!("\"other\", W/{tag}"), "*".to_string()] {
        let got = text(&exchange(
            addr,
            format!(
                "GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: {given}\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        ));
        assert!(
            got.starts_with("HTTP/1.1 304 Not Modified\r\n"),
            "{given}: {got}"
        );
        assert!(got.contains(&format!("ETag: {tag}\r\n")), "{got}");
        assert!(
            got.ends_with("\r\n\r\n") && !got.contains("Content-Length"),
            "{got}"
        );
    }
    // another tag (a copy of an older build) gets the file
    let got = exchange(
        addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"0000\"\r\nConnection: close\r\n\r\n",
    );
    assert!(text(&got).starts_with("HTTP/1.1 200 OK\r\n"));
    assert!(got.ends_with(index()));
    // each file has its own tag
    let engine = text(&exchange(
        addr,
        b"HEAD /pkg/c4lab_wasm_bg.wasm HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ));
    assert!(engine.starts_with("HTTP/1.1 200 OK"), "{engine}");
    assert!(!engine.contains(&tag), "{engine}");
}

#[test]
fn targets_are_read_as_http_spells_them() {
    let addr = start();
    let served = |target: &str| {
        let raw = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        text(&exchange(addr, raw.as_bytes()))
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    for (target, status) in [
        ("/app.js", "200 OK"),
        ("/app%2Ejs", "200 OK"),
        ("/?x=1#y", "200 OK"),
        ("http://127.0.0.1:8765/app.js", "200 OK"),
        ("/../Cargo.toml", "404 Not Found"),
        ("/%2e%2e/Cargo.toml", "404 Not Found"),
        ("/tests/board.test.mjs", "404 Not Found"),
        ("/tests/lab.mjs", "404 Not Found"),
        ("/%FF", "400 Bad Request"),
    ] {
        assert_eq!(served(target), format!("HTTP/1.1 {status}"), "{target}");
    }
    // an encoded slash is no path separator (pkg/ holds the engine, when it was built)
    if !super::ENGINE_BUILT {
        eprintln!("skipped: no engine in pkg/ to ask for with an encoded slash");
        return;
    }
    for (target, status) in [
        ("/pkg%2Fc4lab_wasm.js", "404 Not Found"),
        ("/pkg%2fc4lab_wasm.js", "404 Not Found"),
        ("/pkg/c4lab_wasm.js", "200 OK"),
    ] {
        assert_eq!(served(target), format!("HTTP/1.1 {status}"), "{target}");
    }
}

#[test]
fn bad_requests_get_their_status_and_the_connection_closes() {
    let addr = start();
    for (raw, status) in [
        (
            &b"POST / HTTP/1.1\r\nHost: x\r\n\r\n"[..],
            "405 Method Not Allowed",
        ),
        (b"GET / HTTP/1.1\r\n\r\n", "400 Bad Request"),
        (
            b"GET / HTTP/2.0\r\nHost: x\r\n\r\n",
            "505 HTTP Version Not Supported",
        ),
        (b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n", "400 Bad Request"),
        (b"nonsense\r\n\r\n", "400 Bad Request"),
        // a method that is no token, and versions that are not `HTTP/` DIGIT `.` DIGIT
        // (they were 405, accepted as 1.x, and 505)
        (b"G(T / HTTP/1.1\r\nHost: x\r\n\r\n", "400 Bad Request"),
        (b"GET / HTTP/1.+1\r\nHost: x\r\n\r\n", "400 Bad Request"),
        (b"GET / HTTP/1.10\r\nHost: x\r\n\r\n", "400 Bad Request"),
        (b"GET / HTTP/\r\nHost: x\r\n\r\n", "400 Bad Request"),
        // a length that is no number, or two that differ (they were served)
        (
            b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            "400 Bad Request",
        ),
        (
            b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n",
            "400 Bad Request",
        ),
    ] {
        // read_to_end returns only once the server closes the connection
        let got = text(&exchange(addr, raw));
        assert!(got.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{got}");
    }
    let got = text(&exchange(addr, b"DELETE / HTTP/1.1\r\nHost: x\r\n\r\n"));
    assert!(got.contains("Allow: GET, HEAD"), "{got}");
    // header names are tokens: a space before the colon, or a folded line, is refused
    // (`Content-Length : 5` was not read as a length, so a body passed for a request)
    for raw in [
        &b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello"[..],
        b"GET / HTTP/1.1\r\nHost: x\r\nAccept: a,\r\n\tContent-Length: 5\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
    ] {
        let got = text(&exchange(addr, raw));
        assert!(got.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{got}");
    }
    // an error to HEAD has no body
    let got = text(&exchange(addr, b"HEAD / HTTP/1.1\r\n\r\n"));
    assert!(
        got.starts_with("HTTP/1.1 400 ") && got.ends_with("\r\n\r\n"),
        "{got}"
    );
}

#[test]
fn connections_close_when_either_side_says_so() {
    let addr = start();
    // each of these is answered once and then closed: read_to_end returns
    for raw in [
        &b"GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, close\r\n\r\n"[..],
        b"GET / HTTP/1.0\r\n\r\n",
        b"GET / HTTP/1.2\r\nHost: x\r\nConnection: close\n\r\n",
        // a body this server does not read is not taken for a second request
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 14\r\n\r\nGET /x HTTP/1.1",
    ] {
        let got = text(&exchange(addr, raw));
        assert!(got.starts_with("HTTP/1.1 200 OK\r\n"), "{got}");
        assert_eq!(got.matches("HTTP/1.1 ").count(), 1, "{got}");
        assert!(got.contains("Connection: close"), "{got}");
        // a server with a clock dates its answers (RFC 9110, 6.6.1)
        assert!(
            got.contains("\r\nDate: ") && got.contains(" GMT\r\n"),
            "{got}"
        );
    }
    // HTTP/1.0 keeps a connection when asked to (it never did: the answer said close)
    let mut s = connect(addr);
    s.write_all(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap() == 1 {
        head.push(byte[0]);
    }
    let got = text(&head);
    assert!(got.contains("Connection: keep-alive"), "{got}");
    // and answers the next request on it
    let length: usize = got
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let mut body = vec![0u8; length];
    s.read_exact(&mut body).unwrap();
    s.write_all(b"HEAD / HTTP/1.0\r\n\r\n").unwrap();
    let mut rest = Vec::new();
    s.read_to_end(&mut rest).unwrap();
    assert!(
        text(&rest).starts_with("HTTP/1.1 200 OK\r\n"),
        "{}",
        text(&rest)
    );
}

#[test]
fn a_connection_past_the_most_gets_503_and_no_body_to_head() {
    let addr = start_with(2);
    // two idle connections take both places
    let held: Vec<TcpStream> = (0..2).map(|_| connect(addr)).collect();
    std::thread::sleep(Duration::from_millis(100));
    let got = text(&exchange(addr, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"));
    assert!(
        got.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
        "{got}"
    );
    assert!(
        got.contains("Retry-After: 1\r\n") && got.ends_with("\r\n\r\n"),
        "{got}"
    );
    let got = text(&exchange(addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    assert!(got.ends_with("503 Service Unavailable\n"), "{got}");
    drop(held);
}

#[test]
fn an_endless_request_line_is_cut_off() {
    let addr = start();
    let mut s = connect(addr);
    let t = Instant::now();
    // past the cap, with no line end: the server answers once it has read the cap (it
    // used to read on without bound)
    s.write_all(b"GET /?").unwrap();
    s.write_all(&vec![b'a'; MAX_HEAD + 4096]).unwrap();
    let mut got = Vec::new();
    s.read_to_end(&mut got).unwrap();
    let got = text(&got);
    assert!(got.starts_with("HTTP/1.1 431 "), "{got}");
    assert!(t.elapsed() < Duration::from_secs(10));
}

/// A connection that has asked for the largest embedded file fifty times over, and
/// that file's size.
fn fifty_of_the_largest(addr: SocketAddr) -> (TcpStream, usize) {
    let (big, _, bytes) = ASSETS.iter().max_by_key(|(_, _, b)| b.len()).unwrap();
    let mut s = connect(addr);
    let one = format!("GET {big} HTTP/1.1\r\nHost: x\r\n\r\n");
    s.write_all(one.repeat(50).as_bytes()).unwrap();
    (s, bytes.len())
}

#[test]
fn a_client_that_never_reads_stalls_no_other() {
    let addr = start();
    // a connection that is never read
    let (stuck, _) = fifty_of_the_largest(addr);
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let got = exchange(
        addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(got.ends_with(index()));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    drop(stuck);
}

#[test]
fn a_client_that_reads_a_little_now_and_then_is_dropped() {
    let addr = start();
    let (mut slow, size) = fifty_of_the_largest(addr);
    // a kilobyte every 20 ms: the fifty answers would take minutes, and each takes
    // longer than the test build's one second, so the server gives up on the client
    let t = Instant::now();
    let (mut got, mut buf) = (0, vec![0u8; 1 << 16]);
    while t.elapsed() < Duration::from_secs(4) {
        match slow.read(&mut buf[..1024]) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // then what is left is read at once: only what the sockets had buffered when the
    // server gave up, far short of the fifty answers
    loop {
        match slow.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    assert!(got < 50 * size, "{got} bytes: all fifty answers");
}

#[test]
fn a_kept_alive_connection_answers_in_order() {
    let addr = start();
    let mut s = connect(addr);
    let ask = "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    s.write_all(ask.as_bytes()).unwrap();
    let mut got = Vec::new();
    s.read_to_end(&mut got).unwrap();
    let got = text(&got);
    let first = got.find("HTTP/1.1 200 OK").unwrap();
    let second = got.find("HTTP/1.1 404 Not Found").unwrap();
    assert!(first < second, "{got}");
    assert!(got.contains("Connection: keep-alive") && got.ends_with("404 Not Found\n"));
}

#[test]
fn a_request_not_sent_in_time_gets_408_and_an_idle_connection_closes_unanswered() {
    // (two seconds for the head, not the server's twenty)
    let addr = start_timed(MAX_CONNECTIONS, Duration::from_secs(2));
    // a request begun and left unfinished past the head time (it was closed with no word)
    let mut slow = connect(addr);
    slow.write_all(b"GET / HTTP/1.1\r\nHost:").unwrap();
    let mut got = Vec::new();
    slow.read_to_end(&mut got).unwrap();
    let got = text(&got);
    assert!(got.starts_with("HTTP/1.1 408 Request Timeout\r\n"), "{got}");
    assert!(got.contains("Connection: close"), "{got}");
    // a HEAD request's 408 has no body
    let mut slow = connect(addr);
    slow.write_all(b"HEAD / HTTP/1.1\r\nHost:").unwrap();
    let mut got = Vec::new();
    slow.read_to_end(&mut got).unwrap();
    let got = text(&got);
    assert!(
        got.starts_with("HTTP/1.1 408 ") && got.ends_with("\r\n\r\n"),
        "{got}"
    );
    // the head's time runs from its first byte: a client idle a while that then sends
    // its head in two parts is answered (it got 408, the time counted from the idling)
    let mut late = connect(addr);
    std::thread::sleep(Duration::from_millis(1200));
    late.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    late.write_all(b"Host: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut got = Vec::new();
    late.read_to_end(&mut got).unwrap();
    let got = text(&got);
    assert!(got.starts_with("HTTP/1.1 200 OK"), "{got}");
    // a connection that never sends a request is closed with nothing said
    let mut idle = connect(addr);
    let mut got = Vec::new();
    idle.read_to_end(&mut got).unwrap();
    assert!(got.is_empty(), "{}", text(&got));
}

#[test]
fn a_wildcard_address_is_shown_as_loopback() {
    let shown = |a: &str| page_address(a.parse().unwrap()).to_string();
    assert_eq!(shown("0.0.0.0:8765"), "127.0.0.1:8765");
    assert_eq!(shown("[::]:8765"), "[::1]:8765");
    assert_eq!(shown("192.0.2.7:80"), "192.0.2.7:80");
    // (Chromium opened `http://[::ffff:127.0.0.1]:8765/` without cross-origin isolation)
    assert_eq!(shown("[::ffff:127.0.0.1]:8765"), "127.0.0.1:8765");
    assert_eq!(shown("[::ffff:0.0.0.0]:8765"), "127.0.0.1:8765");
    assert_eq!(shown("[::1]:8765"), "[::1]:8765");
}

#[test]
fn a_host_is_bound_as_given_and_one_with_a_port_is_refused() {
    assert_eq!(listen_address("127.0.0.1", 80).unwrap(), "127.0.0.1:80");
    assert_eq!(listen_address("::1", 80).unwrap(), "[::1]:80");
    assert_eq!(listen_address("localhost", 80).unwrap(), "localhost:80");
    assert_eq!(listen_address("[::1]", 80).unwrap(), "[::1]:80");
    assert_eq!(
        listen_address("fe80::1%eth0", 80).unwrap(),
        "[fe80::1%eth0]:80"
    );
    for (host, fix) in [
        ("127.0.0.1:9999", "--host 127.0.0.1 --port 9999"),
        ("[::1]:9999", "--host ::1 --port 9999"),
        ("localhost:9999", "--host localhost --port 9999"),
    ] {
        let e = listen_address(host, 80).unwrap_err().to_string();
        assert!(e.contains(&format!("--host {host} holds a port")), "{e}");
        assert!(e.contains(fix), "{e}");
    }
    // a URL is named as one (it was bound as `[http://127.0.0.1]:80`, an IPv6 address)
    for (host, fix) in [
        ("http://127.0.0.1", "--host 127.0.0.1"),
        ("http://127.0.0.1:8765/", "--host 127.0.0.1"),
        ("https://[::1]:8765/", "--host ::1"),
    ] {
        let e = listen_address(host, 80).unwrap_err().to_string();
        assert!(e.contains("is a URL") && e.contains(fix), "{e}");
    }
}
