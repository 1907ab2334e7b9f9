//! The sdk's error type.

use std::path::PathBuf;

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum SdkError {
    /// The build was given no source files.
    #[error("no source files given")]
    NoSources,

    /// A source file has an extension the sdk does not know how to build.
    #[error(
        "{path}: unknown source kind (expected .c, .cc/.cpp/.cxx/.c++, .s/.S or .o)",
        path = .0.display()
    )]
    UnknownSourceKind(PathBuf),

    /// The output path cannot name a title (no file name, or one that is not UTF-8).
    #[error("{path}: {problem}", path = .path.display())]
    BadOutputPath {
        /// The output path as given.
        path: PathBuf,
        /// What is wrong with it.
        problem: &'static str,
    },

    /// A compiler or linker is not installed.
    #[error(
        "{tool} was not found: install the Debian package {package} \
         (apt-get install {package}), or put {tool} on PATH"
    )]
    ToolMissing {
        /// The program that could not be started.
        tool: String,
        /// The Debian package that provides it.
        package: &'static str,
    },

    /// A compiler or linker ran and failed; its own diagnostics are in `stderr`.
    #[error("{tool} failed ({status}):\n  {command}\n{stderr}")]
    ToolFailed {
        /// The program that failed.
        tool: String,
        /// The command line, for running it again by hand.
        command: String,
        /// How it ended.
        status: String,
        /// What it printed on stderr (and stdout).
        stderr: String,
    },

    /// Reading or writing a file failed.
    #[error("{path}: {source}", path = .path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },

    /// An object file or the linked ELF could not be read back.
    #[error("{path}: cannot read the ELF: {problem}", path = .path.display())]
    BadElf {
        /// The file that could not be read.
        path: PathBuf,
        /// What went wrong.
        problem: String,
    },

    /// The title has no `main` (executables need one; the crt calls it).
    #[error("no `main` function is defined; an executable needs one (or build with --module)")]
    NoMain,

    /// Symbols are used but neither defined by the title nor exported by any console
    /// library the sdk's table knows.
    #[error(
        "undefined symbols, not exported by any console library the sdk knows: {}\n\
         (is a definition missing? the table is crates/sdk/data/exports.tsv)",
        .0.join(", ")
    )]
    UnknownSymbols(Vec<String>),

    /// A module defines `module_start` or `module_stop` without exporting it.
    #[error(
        "`{0}` is defined but hidden, so the loader could not call it: declare it through \
         <kernel.h> or mark the definition SCE_EXPORT"
    )]
    HiddenModuleEntry(String),

    /// The linked ELF uses a copy relocation, which the console format does not allow.
    #[error(
        "the linked title copies `{0}` (R_X86_64_COPY); data imports must go through the GOT \
         (do not pass -fno-pic or -fdirect-access-external-data)"
    )]
    CopyRelocation(String),

    /// The sce writer refused the linked ELF.
    #[error("converting to the PS5 format: {0}")]
    Writer(#[from] sce::Error),
}

impl SdkError {
    /// An [`SdkError::Io`] for `path`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> SdkError {
        let path = path.into();
        move |source| SdkError::Io { path, source }
    }
}
