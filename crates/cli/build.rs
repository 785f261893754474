//! Embeds the Lab's page (`web/`) and its built engine (`web/pkg/`) into the binary, so
//! `c4lab serve` needs no files beside it. Without a built engine the binary still
//! builds, and `serve` says how to build it.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    let web = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    collect(&web, &web, &mut files);
    files.sort();
    let engine = files.iter().any(|f| f == "pkg/c4lab_wasm_bg.wasm");
    let mut out = String::from("/// The Lab's files: path, content type, bytes.\npub static ASSETS: &[(&str, &str, &[u8])] = &[\n");
    for f in &files {
        let kind = match Path::new(f).extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("wasm") => "application/wasm",
            Some("svg") => "image/svg+xml",
            _ => continue,
        };
        let abs = web.join(f).canonicalize().unwrap();
        writeln!(
            out,
            "    (\"/{f}\", \"{kind}\", include_bytes!({:?})),",
            abs.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    writeln!(out, "/// True when the WebAssembly engine was built before this binary.\npub const ENGINE_BUILT: bool = {engine};").unwrap();
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("assets.rs");
    std::fs::write(dest, out).unwrap();
}

/// Page files below `dir`, relative to `web`, leaving out tests and npm's folders.
fn collect(web: &Path, dir: &Path, files: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let rel = path
            .strip_prefix(web)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("tests")
            || rel.contains("node_modules")
            || rel.starts_with("test-results")
        {
            continue;
        }
        if path.is_dir() {
            collect(web, &path, files);
        } else {
            files.push(rel);
        }
    }
}
