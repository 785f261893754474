//! The open files `c4lab serve` may hold: one a connection.

/// Open files the server asks for: a connection holds one, so [`super::MAX_CONNECTIONS`] and
/// the few the process holds besides fit (a system whose soft limit is lower, as macOS's
/// 256, turned connections away with a reset before the cap could answer 503).
#[cfg(unix)]
const OPEN_FILES: libc::rlim_t = 1024;

/// Raises the soft limit on open files to [`OPEN_FILES`] where it is lower and the hard
/// limit allows (what a server does where the system's default is set for shells).
#[cfg(unix)]
pub(super) fn raise_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: both calls only read or write the one local struct they are given
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return;
        }
        let want = OPEN_FILES.min(limit.rlim_max);
        if limit.rlim_cur < want {
            limit.rlim_cur = want;
            // (refused: the accept loop says so when a connection cannot be taken)
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

#[cfg(not(unix))]
pub(super) fn raise_limit() {}

/// Whether `e`, an error of `accept`, means the process or system is short of files or
/// memory, and if so what to say of it (the other errors are one connection's).
#[cfg(unix)]
pub(super) fn shortage(e: &std::io::Error) -> Option<&'static str> {
    match e.raw_os_error()? {
        libc::EMFILE => Some(": too many open files for this process, raise `ulimit -n`"),
        libc::ENFILE => Some(": the system's open files are used up"),
        libc::ENOBUFS | libc::ENOMEM => Some(": the system is short of memory"),
        _ => None,
    }
}

#[cfg(not(unix))]
pub(super) fn shortage(e: &std::io::Error) -> Option<&'static str> {
    // (WSAEMFILE: the process's sockets are used up)
    (e.kind() == std::io::ErrorKind::OutOfMemory || e.raw_os_error() == Some(10024)).then_some("")
}
