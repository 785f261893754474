//! A request head read as HTTP/1.1 spells it (RFC 9110, 9112): the little of it `c4lab
//! serve` needs, and the refusals of the rest.

use super::MAX_HEAD;

/// One request, as far as this server reads it.
pub(super) struct Request {
    pub(super) head_only: bool,
    pub(super) path: String,
    pub(super) keep_alive: bool,
    /// The `If-None-Match` header's value, when sent (its lists joined by commas).
    pub(super) if_none_match: Option<String>,
}

/// Why a request head was refused: the status, its reason phrase and extra headers.
pub(super) type Refusal = (u16, &'static str, &'static str);

/// Whether `name` is a token of RFC 9110, 5.6.2 (a header name, or a method).
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Reads a request head: GET or HEAD of an origin-form (`/app.js`) or absolute-form
/// (`http://host/app.js`) target, percent-decoded, without its query.
pub(super) fn parse(head: &[u8]) -> Result<Request, Refusal> {
    if head.len() > MAX_HEAD {
        return Err((431, "Request Header Fields Too Large", ""));
    }
    let bad = (400, "Bad Request", "");
    let end = head.iter().position(|&b| b == b'\n').ok_or(bad)?;
    let line = std::str::from_utf8(&head[..end]).map_err(|_| bad)?;
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad);
    };
    // `HTTP/` DIGIT `.` DIGIT (RFC 9112, 2.3); HTTP/1.x: a later minor version is
    // answered as 1.1 (RFC 9110, 6.2)
    let digits = match version.as_bytes() {
        [b'H', b'T', b'T', b'P', b'/', major, b'.', minor]
            if major.is_ascii_digit() && minor.is_ascii_digit() =>
        {
            (major - b'0', u32::from(minor - b'0'))
        }
        _ => return Err(bad),
    };
    let minor = match digits {
        (1, minor) => minor,
        _ => return Err((505, "HTTP Version Not Supported", "")),
    };
    if !is_token(method) {
        return Err(bad);
    }
    let (mut hosts, mut close, mut keep) = (0, false, false);
    let mut length: Option<String> = None;
    let mut chunked = false;
    let mut if_none_match: Option<String> = None;
    // header values may hold any octet (obs-text); only their names are read strictly
    let fields = String::from_utf8_lossy(&head[end + 1..]);
    for l in fields.split('\n') {
        let l = l.strip_suffix('\r').unwrap_or(l);
        if l.is_empty() {
            continue;
        }
        // a folded line (obs-fold) or a name with spaces is refused (RFC 9112, 5)
        let (name, value) = l.split_once(':').ok_or(bad)?;
        if !is_token(name) {
            return Err(bad);
        }
        let value = value.trim();
        let listed = |word: &str| {
            value
                .split(',')
                .any(|v| v.trim().eq_ignore_ascii_case(word))
        };
        match name.to_ascii_lowercase().as_str() {
            "host" => hosts += 1,
            "connection" => {
                close |= listed("close");
                keep |= listed("keep-alive");
            }
            // a length that is no number, or two that differ, leave the message's end
            // unknown (RFC 9112, 6.3)
            "content-length" => {
                if value.is_empty()
                    || !value.bytes().all(|b| b.is_ascii_digit())
                    || length.as_deref().is_some_and(|l| l != value)
                {
                    return Err(bad);
                }
                length = Some(value.to_string());
            }
            "transfer-encoding" => chunked = true,
            // (a field sent twice is one list: RFC 9110, 5.3)
            "if-none-match" => {
                if_none_match = Some(match if_none_match {
                    Some(before) => format!("{before}, {value}"),
                    None => value.to_string(),
                })
            }
            _ => {}
        }
    }
    let body = chunked || length.is_some_and(|l| l.bytes().any(|b| b != b'0'));
    // HTTP/1.1 requires one Host (RFC 9112, 3.2)
    if minor > 0 && hosts != 1 {
        return Err(bad);
    }
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        return Err((405, "Method Not Allowed", "Allow: GET, HEAD\r\n"));
    }
    let path = if target.starts_with('/') {
        target
    } else {
        // absolute form: the path after the authority
        let scheme = target.find("://").ok_or(bad)?;
        if !matches!(
            target[..scheme].to_ascii_lowercase().as_str(),
            "http" | "https"
        ) {
            return Err(bad);
        }
        let rest = &target[scheme + 3..];
        rest.find(['/', '?']).map_or("/", |i| &rest[i..])
    };
    let path = path
        .split(['?', '#'])
        .next()
        .filter(|p| !p.is_empty())
        .unwrap_or("/");
    // segment by segment: an encoded slash (`%2F`) is part of a name, so it stays
    // encoded and names no file (`/pkg%2Fc4lab_wasm.js` was served as a file in pkg/)
    let mut segments = Vec::new();
    for raw in path.split('/') {
        let segment = percent_encoding::percent_decode_str(raw)
            .decode_utf8()
            .map_err(|_| bad)?;
        segments.push(segment.replace('/', "%2F"));
    }
    let path = segments.join("/");
    // HTTP/1.0 keeps a connection only when asked to
    let keep_alive = if minor == 0 { keep && !close } else { !close };
    Ok(Request {
        head_only,
        path,
        // a body this server does not read would be taken for the next request
        keep_alive: keep_alive && !body,
        if_none_match,
    })
}
