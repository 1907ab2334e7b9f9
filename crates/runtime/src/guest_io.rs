//! Guest standard output and error.
//!
//! Both are line-buffered even into a pipe, so a title that is killed loses nothing it
//! printed before a newline. Each stream has its own lock; writes go straight to the
//! host file descriptor with `write(2)`, bypassing Rust's stdout buffering.

use std::sync::Mutex;

/// A line-buffered guest stream over a host file descriptor.
pub struct GuestStream {
    fd: i32,
    pending: Mutex<Vec<u8>>,
}

/// Guest `stdout`.
pub static STDOUT: GuestStream = GuestStream::new(1);
/// Guest `stderr`.
pub static STDERR: GuestStream = GuestStream::new(2);

impl GuestStream {
    const fn new(fd: i32) -> Self {
        GuestStream {
            fd,
            pending: Mutex::new(Vec::new()),
        }
    }

    /// Appends bytes; everything up to the last newline is written out at once.
    pub fn write(&self, bytes: &[u8]) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.extend_from_slice(bytes);
        if let Some(last_nl) = pending.iter().rposition(|&b| b == b'\n') {
            let rest = pending.split_off(last_nl + 1);
            write_all(self.fd, &pending);
            *pending = rest;
        }
    }

    /// Writes out whatever is pending.
    pub fn flush(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        write_all(self.fd, &pending);
        pending.clear();
    }
}

fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: the pointer and length describe a live slice.
        let n = unsafe { host_libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

/// Flushes both guest streams (at exit and before abort).
pub fn flush_all() {
    STDOUT.flush();
    STDERR.flush();
}
