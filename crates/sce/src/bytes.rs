//! Bounds-checked little-endian reads that turn a short buffer into a named error.

use crate::error::{Error, Result};

/// A byte slice that reports out-of-range reads as [`Error::Malformed`].
#[derive(Clone, Copy)]
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// Wraps a buffer.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    /// The whole buffer.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// `len` bytes at `offset`, or an error naming `field`.
    pub fn slice(&self, offset: u64, len: u64, field: &'static str) -> Result<&'a [u8]> {
        let end = offset.checked_add(len);
        match end {
            Some(end) if end <= self.data.len() as u64 => {
                Ok(&self.data[offset as usize..end as usize])
            }
            _ => Err(Error::malformed(
                offset,
                field,
                format!(
                    "{len:#x} bytes at {offset:#x} run past the end of the {:#x}-byte file",
                    self.data.len()
                ),
            )),
        }
    }

    /// Reads a `u8`.
    pub fn u8(&self, offset: u64, field: &'static str) -> Result<u8> {
        Ok(self.slice(offset, 1, field)?[0])
    }

    /// Reads a little-endian `u16`.
    pub fn u16(&self, offset: u64, field: &'static str) -> Result<u16> {
        let b = self.slice(offset, 2, field)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// Reads a little-endian `u32`.
    pub fn u32(&self, offset: u64, field: &'static str) -> Result<u32> {
        let b = self.slice(offset, 4, field)?;
        Ok(u32::from_le_bytes(b.try_into().expect("slice of 4")))
    }

    /// Reads a little-endian `u64`.
    pub fn u64(&self, offset: u64, field: &'static str) -> Result<u64> {
        let b = self.slice(offset, 8, field)?;
        Ok(u64::from_le_bytes(b.try_into().expect("slice of 8")))
    }

    /// Reads a NUL-terminated string starting at `offset`, limited to `limit` bytes.
    pub fn cstr(&self, offset: u64, limit: u64, field: &'static str) -> Result<&'a str> {
        let avail = (self.data.len() as u64).saturating_sub(offset).min(limit);
        let b = self.slice(offset, avail, field)?;
        let end = b
            .iter()
            .position(|&c| c == 0)
            .ok_or_else(|| Error::malformed(offset, field, "string has no terminating NUL"))?;
        std::str::from_utf8(&b[..end])
            .map_err(|_| Error::malformed(offset, field, "string is not valid UTF-8"))
    }
}
