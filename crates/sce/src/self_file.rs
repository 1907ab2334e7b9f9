//! Fake (unencrypted) SELF containers: the signed wrapper around a PS4/PS5 ELF.
//!
//! A SELF starts with a 0x20-byte header and a table of 0x20-byte segment entries, then
//! the ELF header and program headers. Each "blocked" entry carries the file bytes of
//! one program header (its id is the program header index); the others hold signatures
//! and block tables. Unwrapping places every blocked entry at its program header's
//! `p_offset` to rebuild the ELF as it was before signing.

use crate::bytes::Bytes;
use crate::elf::{FileHeader, ProgramHeader, EHDR_SIZE, PHDR_SIZE};
use crate::error::{Error, Result};

/// Magic of a PS4 SELF (`4F 15 3D 1D`).
pub const PS4_SELF_MAGIC: [u8; 4] = [0x4F, 0x15, 0x3D, 0x1D];
/// Magic of a PS5 SELF (`54 14 F5 EE`).
pub const PS5_SELF_MAGIC: [u8; 4] = [0x54, 0x14, 0xF5, 0xEE];

const SELF_HEADER_SIZE: u64 = 0x20;
const ENTRY_SIZE: u64 = 0x20;
const FLAG_ENCRYPTED: u64 = 0x2;
const FLAG_COMPRESSED: u64 = 0x8;
const FLAG_BLOCKED: u64 = 0x800;
/// The largest ELF image a SELF may unwrap to; guards against absurd offsets.
const MAX_IMAGE: u64 = 1 << 32;

/// The largest image a SELF of `file_len` bytes may unwrap to. The unwrapped ELF keeps
/// the gaps between its 16 KiB-aligned segments, which the SELF leaves out, so it can
/// be several times larger than the file — but not by gigabytes: a small file that
/// claims a segment at 3 GiB is malformed, not something to allocate for.
fn image_limit(file_len: usize) -> u64 {
    (file_len as u64)
        .saturating_mul(16)
        .saturating_add(256 << 20)
        .min(MAX_IMAGE)
}

/// Which SELF flavour wrapped the ELF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelfKind {
    /// PS4 magic.
    Ps4,
    /// PS5 magic.
    Ps5,
}

/// The SELF container's header fields, kept for `inspect`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfHeader {
    /// Flavour.
    pub kind: SelfKind,
    /// Number of segment entries.
    pub entries: u16,
    /// File size the header declares.
    pub file_size: u64,
}

/// Returns the SELF flavour if `data` starts with a SELF magic.
pub fn detect(data: &[u8]) -> Option<SelfKind> {
    match data.get(..4)? {
        m if m == PS4_SELF_MAGIC => Some(SelfKind::Ps4),
        m if m == PS5_SELF_MAGIC => Some(SelfKind::Ps5),
        _ => None,
    }
}

/// Unwraps a fake SELF into the ELF it carries.
pub fn unwrap(data: &[u8]) -> Result<(SelfHeader, Vec<u8>)> {
    let b = Bytes::new(data);
    let kind = detect(data).ok_or_else(|| Error::malformed(0, "SELF magic", "not a SELF"))?;
    let file_size = b.u64(0x10, "SELF file_size")?;
    let entries = b.u16(0x18, "SELF num_entries")?;
    let elf_off = SELF_HEADER_SIZE + entries as u64 * ENTRY_SIZE;
    let elf = Bytes::new(b.slice(
        elf_off,
        data.len() as u64 - elf_off.min(data.len() as u64),
        "SELF ELF header",
    )?);
    let header = FileHeader::parse(elf).map_err(|e| shift(e, elf_off))?;
    let ph_end = header.phoff.saturating_add(header.phnum as u64 * PHDR_SIZE);
    let mut image_len = EHDR_SIZE.max(ph_end);
    let phdrs: Vec<ProgramHeader> = (0..header.phnum as u64)
        .map(|i| ProgramHeader::parse(elf, header.phoff.saturating_add(i * PHDR_SIZE)))
        .collect::<Result<_>>()
        .map_err(|e| shift(e, elf_off))?;

    let mut placements = Vec::new();
    for i in 0..entries as u64 {
        let eo = SELF_HEADER_SIZE + i * ENTRY_SIZE;
        let props = b.u64(eo, "SELF entry props")?;
        let offset = b.u64(eo + 8, "SELF entry offset")?;
        let filesz = b.u64(eo + 16, "SELF entry file_size")?;
        if props & FLAG_BLOCKED == 0 {
            continue;
        }
        if props & (FLAG_ENCRYPTED | FLAG_COMPRESSED) != 0 {
            return Err(Error::EncryptedSelf {
                segment: i as usize,
                offset: eo,
            });
        }
        let id = ((props >> 20) & 0xfff) as usize;
        let ph = phdrs.get(id).ok_or_else(|| {
            Error::malformed(
                eo,
                "SELF entry props",
                format!(
                    "segment id {id} names no program header (there are {})",
                    phdrs.len()
                ),
            )
        })?;
        let src = b.slice(offset, filesz, "SELF entry data")?;
        let end = ph
            .offset
            .checked_add(filesz)
            .filter(|&e| e <= image_limit(data.len()))
            .ok_or_else(|| {
                Error::malformed(
                    eo,
                    "SELF entry file_size",
                    format!(
                        "program header {id} places its data at {:#x}, far past what a {:#x}-byte SELF can hold",
                        ph.offset,
                        data.len()
                    ),
                )
            })?;
        if filesz > ph.filesz {
            return Err(Error::malformed(
                eo + 16,
                "SELF entry file_size",
                format!(
                    "{filesz:#x} is larger than p_filesz {:#x} of program header {id}",
                    ph.filesz
                ),
            ));
        }
        image_len = image_len.max(end);
        placements.push((ph.offset, src));
    }
    if image_len > image_limit(data.len()) {
        return Err(Error::malformed(
            elf_off + 32,
            "e_phoff",
            "program headers lie far past the end of the SELF",
        ));
    }
    let mut image = vec![0u8; image_len as usize];
    let head = elf
        .slice(0, ph_end, "program headers")
        .map_err(|e| shift(e, elf_off))?;
    image[..head.len()].copy_from_slice(head);
    for (at, src) in placements {
        image[at as usize..at as usize + src.len()].copy_from_slice(src);
    }
    Ok((
        SelfHeader {
            kind,
            entries,
            file_size,
        },
        image,
    ))
}

/// Rebases an error found in the embedded ELF onto SELF file offsets.
fn shift(e: Error, by: u64) -> Error {
    match e {
        Error::Malformed {
            offset,
            field,
            problem,
        } => Error::Malformed {
            offset: offset.wrapping_add(by),
            field,
            problem,
        },
        other => other,
    }
}
