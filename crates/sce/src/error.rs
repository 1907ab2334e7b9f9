//! The one error type of the format crate.

/// Why a PS5 binary could not be read or written.
///
/// Every malformed-input error names the file offset and the field at fault, so that a
/// user can look at the bytes with a hex editor and see what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A field holds a value that the format does not allow, or points outside the file.
    #[error("malformed input at offset {offset:#x}: {field}: {problem}")]
    Malformed {
        /// File offset of the field (in the unwrapped ELF for SELF input).
        offset: u64,
        /// Name of the field, as the format notes spell it.
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// The input is a SELF whose segments are encrypted or compressed.
    #[error(
        "encrypted SELF: segment {segment} at offset {offset:#x} is encrypted or compressed; \
         the input must be decrypted first (a fake SELF or a plain ELF)"
    )]
    EncryptedSelf {
        /// Index of the first encrypted SELF segment entry.
        segment: usize,
        /// File offset of that entry.
        offset: u64,
    },
    /// The input is well-formed but uses something the writer cannot express.
    #[error("cannot convert: {0}")]
    Unsupported(String),
}

impl Error {
    /// Builds a [`Error::Malformed`] error.
    pub fn malformed(offset: u64, field: &'static str, problem: impl Into<String>) -> Self {
        Error::Malformed {
            offset,
            field,
            problem: problem.into(),
        }
    }
}

/// Result alias for this crate.
pub type Result<T> = std::result::Result<T, Error>;
