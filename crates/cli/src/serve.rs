//! `c4lab serve`: serves the Lab's page and engine, embedded in this binary.

use std::io::{Cursor, Write as _};

use anyhow::{anyhow, bail, Result};
use tiny_http::{Header, Response, Server};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// Looks up an embedded file by request path (`/` is `index.html`).
fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let path = if path == "/" { "/index.html" } else { path };
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, kind, bytes)| (*kind, *bytes))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("static header")
}

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
    let server = Server::http(&addr).map_err(|e| {
        let busy = e
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::AddrInUse);
        let hint = if busy {
            " (another server is on that port: try --port, or --port 0 for any free one)"
        } else {
            " (check --host: an address of this machine, such as 127.0.0.1 or ::1)"
        };
        anyhow!("cannot listen on {addr}: {e}{hint}")
    })?;
    // the address bound, not the one asked for: with port 0 the system picks a free one
    let bound = server.server_addr().to_ip().map_or(addr, |a| a.to_string());
    let url = format!("http://{bound}/");
    // the banner is a courtesy: a server whose output was closed still serves
    let _ = writeln!(std::io::stdout(), "the Lab is at {url} (Ctrl-C stops it)");
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
    for request in server.incoming_requests() {
        let response = match asset(request.url()) {
            Some((kind, bytes)) => Response::new(
                200.into(),
                vec![
                    header("Content-Type", kind),
                    header("Cache-Control", "no-store"),
                    header("X-Content-Type-Options", "nosniff"),
                    // cross-origin isolation, so the page may share memory with its
                    // workers (the dsat race lowers a search's ceiling mid-call)
                    header("Cross-Origin-Opener-Policy", "same-origin"),
                    header("Cross-Origin-Embedder-Policy", "require-corp"),
                    header(
                        "Content-Security-Policy",
                        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
                    ),
                ],
                Cursor::new(bytes.to_vec()),
                Some(bytes.len()),
                None,
            ),
            None => Response::new(
                404.into(),
                vec![header("Content-Type", "text/plain; charset=utf-8")],
                Cursor::new(b"not found".to_vec()),
                Some(9),
                None,
            ),
        };
        // a client that hung up mid-response is not the server's problem
        let _ = request.respond(response);
    }
    Ok(0)
}
