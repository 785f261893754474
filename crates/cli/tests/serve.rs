//! `c4lab serve` as a process, within the open-file limit the system gives it (the
//! server's answers to requests are tested in crates/cli/src/serve/tests.rs).
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A server started under `ulimit` with `limit` (say `-n 64`), its address, and what it
/// writes on standard error as it comes; killed when dropped.
struct Server {
    child: Child,
    addr: String,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    /// The server, or `None` (said) where this binary was built without the page's
    /// engine, which it refuses to serve without (`scripts/test` builds it first).
    fn start(limit: &str) -> Option<Server> {
        let mut child = Command::new("bash")
            .args([
                "-c",
                &format!("ulimit {limit} && exec \"$0\" serve --port 0"),
                env!("CARGO_BIN_EXE_c4lab"),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("c4lab serve runs");
        let mut banner = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut banner)
            .unwrap();
        if banner.is_empty() {
            let mut said = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut said)
                .unwrap();
            assert!(
                said.contains("without the Lab's WebAssembly engine"),
                "{said}"
            );
            eprintln!("skipped: {}", said.trim());
            let _ = child.wait();
            return None;
        }
        // "the Lab is at http://127.0.0.1:PORT/ (Ctrl-C stops it)"
        let addr = banner
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {banner:?}"))
            .to_string();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().unwrap();
        let said = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 1024];
            while let Ok(n @ 1..) = err.read(&mut chunk) {
                said.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&chunk[..n]));
            }
        });
        Some(Server {
            child,
            addr,
            stderr,
        })
    }

    /// Opens `n` connections that send nothing (each holds one of the server's files).
    fn idle(&self, n: usize) -> Vec<TcpStream> {
        (0..n)
            .map(|_| TcpStream::connect(&self.addr).unwrap())
            .collect()
    }

    /// The status line of a GET of the page, or the error that ended the exchange.
    fn get(&self) -> String {
        let exchange = || -> std::io::Result<String> {
            let mut s = TcpStream::connect(&self.addr)?;
            s.set_read_timeout(Some(Duration::from_secs(5)))?;
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?;
            let mut got = String::new();
            BufReader::new(s).read_line(&mut got)?;
            Ok(got.trim_end().to_string())
        };
        exchange().unwrap_or_else(|e| format!("failed: {e}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_holds_one_open_file_a_connection_and_says_when_it_runs_out() {
    // 64 open files at most, hard limit too: 40 idle connections and a request fit
    // (a connection held two, and from about the 28th on every new one was reset)
    let Some(server) = Server::start("-n 64") else {
        return;
    };
    let idle = server.idle(40);
    assert_eq!(server.get(), "HTTP/1.1 200 OK");
    // past the limit a connection waits, and the server says why, once
    let more = server.idle(40);
    std::thread::sleep(Duration::from_millis(500));
    let said = server.stderr.lock().unwrap().clone();
    assert!(
        said.contains("warning: cannot take a connection (Too many open files")
            && said.contains("raise `ulimit -n`"),
        "{said:?}"
    );
    assert_eq!(said.matches("warning").count(), 1, "{said:?}");
    // and is taken once others close
    drop((idle, more));
    assert_eq!(server.get(), "HTTP/1.1 200 OK");
    drop(server);
    // a soft limit below what the most connections need is raised as the hard one allows
    // (macOS gives 256), which must leave room for 200
    let hard = Command::new("bash")
        .args(["-c", "ulimit -Hn"])
        .output()
        .unwrap();
    let hard = String::from_utf8_lossy(&hard.stdout).trim().to_string();
    if hard.parse::<u64>().is_ok_and(|n| n < 256) {
        eprintln!("skipped: a hard limit of {hard} open files leaves no room for 200 connections");
        return;
    }
    let server = Server::start("-Sn 64").unwrap();
    let idle = server.idle(200);
    assert_eq!(server.get(), "HTTP/1.1 200 OK");
    drop(idle);
    assert_eq!(server.stderr.lock().unwrap().as_str(), "");
}
