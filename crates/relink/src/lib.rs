//! The relinker: a PS5 title folder becomes a folder the host runs as it is.
//!
//! ```text
//! OUTDIR/app.elf                 the executable, bound by the host loader
//! OUTDIR/libs/<runtime>.so       the native5 runtime
//! OUTDIR/app0/…                  the title's files; every .prx/.sprx converted in place
//! OUTDIR/native5.toml            per-title configuration (start modules, …)
//! ```
//!
//! Steps: [`analyze`] (imports by NID, relocation kinds, the raw-syscall scan), then
//! [`emit`] (appended SysV dynamic section, entry stub, program headers). Output is built
//! in a temporary folder beside OUTDIR and renamed into place, so a failure leaves
//! nothing half-written.

pub mod analyze;
pub mod emit;
pub mod output;
pub mod runtime_exports;
pub mod syscalls;

pub use analyze::UnusedFilter;
pub use output::{relink, RelinkOptions, RelinkReport};

/// Why a relink failed.
#[derive(Debug, thiserror::Error)]
pub enum RelinkError {
    /// The input could not be read as a PS5 binary.
    #[error("{path}: {source}")]
    Format {
        /// The file.
        path: String,
        /// The format error (names offset and field).
        source: sce::Error,
    },
    /// A relocation type the host loader cannot apply for us.
    #[error("unsupported relocation {kind} at {offset:#x}")]
    UnsupportedRelocation {
        /// Address it patches.
        offset: u64,
        /// Its type.
        kind: String,
    },
    /// Reachable code issues a raw system call.
    #[error(
        "{path}: raw system call `{instruction}` at {address:#x}{near}; titles must call \
         libkernel instead (--allow-syscalls skips this check, for debugging only)"
    )]
    RawSyscall {
        /// The file.
        path: String,
        /// Its address.
        address: u64,
        /// The instruction text.
        instruction: String,
        /// ", in the function at …" when known.
        near: String,
    },
    /// The block did not fit the address space rules.
    #[error("layout: {0}")]
    Layout(String),
    /// The runtime shared object was not found or not readable.
    #[error("runtime: {0}")]
    Runtime(String),
    /// A file system operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
}

impl RelinkError {
    /// Wraps an I/O error with what was being done.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> RelinkError {
        let what = what.into();
        move |source| RelinkError::Io { what, source }
    }
}
