//! The dynamic table: standard tags, the SCE tags, and their decoded meaning.

use crate::bytes::Bytes;
use crate::error::{Error, Result};

/// Dynamic tag values (standard and SCE).
pub mod dt {
    #![allow(missing_docs)]
    pub const NULL: u64 = 0;
    pub const NEEDED: u64 = 1;
    pub const PLTRELSZ: u64 = 2;
    pub const PLTGOT: u64 = 3;
    pub const HASH: u64 = 4;
    pub const STRTAB: u64 = 5;
    pub const SYMTAB: u64 = 6;
    pub const RELA: u64 = 7;
    pub const RELASZ: u64 = 8;
    pub const RELAENT: u64 = 9;
    pub const STRSZ: u64 = 10;
    pub const SYMENT: u64 = 11;
    pub const INIT: u64 = 12;
    pub const FINI: u64 = 13;
    pub const SONAME: u64 = 14;
    pub const RPATH: u64 = 15;
    pub const SYMBOLIC: u64 = 16;
    pub const PLTREL: u64 = 20;
    pub const DEBUG: u64 = 21;
    pub const TEXTREL: u64 = 22;
    pub const JMPREL: u64 = 23;
    pub const BIND_NOW: u64 = 24;
    pub const INIT_ARRAY: u64 = 25;
    pub const FINI_ARRAY: u64 = 26;
    pub const INIT_ARRAYSZ: u64 = 27;
    pub const FINI_ARRAYSZ: u64 = 28;
    pub const RUNPATH: u64 = 29;
    pub const FLAGS: u64 = 30;
    pub const PREINIT_ARRAY: u64 = 32;
    pub const PREINIT_ARRAYSZ: u64 = 33;
    pub const GNU_HASH: u64 = 0x6fff_fef5;
    pub const VERSYM: u64 = 0x6fff_fff0;
    pub const RELACOUNT: u64 = 0x6fff_fff9;
    pub const FLAGS_1: u64 = 0x6fff_fffb;
    pub const VERDEF: u64 = 0x6fff_fffc;
    pub const VERDEFNUM: u64 = 0x6fff_fffd;
    pub const VERNEED: u64 = 0x6fff_fffe;
    pub const VERNEEDNUM: u64 = 0x6fff_ffff;
    /// The SCE variants of the init/fini tags are the standard tag plus this base.
    pub const SCE_INIT_FINI_BASE: u64 = 0x6000_0000;
    pub const SCE_FINGERPRINT: u64 = 0x6100_0007;
    pub const SCE_FILENAME: u64 = 0x6100_0009;
    pub const SCE_MODULE_INFO: u64 = 0x6100_000D;
    pub const SCE_NEEDED_MODULE: u64 = 0x6100_000F;
    pub const SCE_MODULE_ATTR: u64 = 0x6100_0011;
    pub const SCE_EXPORT_LIB: u64 = 0x6100_0013;
    pub const SCE_IMPORT_LIB: u64 = 0x6100_0015;
    pub const SCE_EXPORT_LIB_ATTR: u64 = 0x6100_0017;
    pub const SCE_IMPORT_LIB_ATTR: u64 = 0x6100_0019;
    pub const SCE_STUB_MODULE_NAME: u64 = 0x6100_001D;
    pub const SCE_STUB_MODULE_VER: u64 = 0x6100_001F;
    pub const SCE_STUB_LIBRARY_NAME: u64 = 0x6100_0021;
    pub const SCE_STUB_LIBRARY_VER: u64 = 0x6100_0023;
    pub const SCE_HASH: u64 = 0x6100_0025;
    pub const SCE_PLTGOT: u64 = 0x6100_0027;
    pub const SCE_JMPREL: u64 = 0x6100_0029;
    pub const SCE_PLTREL: u64 = 0x6100_002B;
    pub const SCE_PLTRELSZ: u64 = 0x6100_002D;
    pub const SCE_RELA: u64 = 0x6100_002F;
    pub const SCE_RELASZ: u64 = 0x6100_0031;
    pub const SCE_RELAENT: u64 = 0x6100_0033;
    pub const SCE_STRTAB: u64 = 0x6100_0035;
    pub const SCE_STRSZ: u64 = 0x6100_0037;
    pub const SCE_SYMTAB: u64 = 0x6100_0039;
    pub const SCE_SYMENT: u64 = 0x6100_003B;
    pub const SCE_HASHSZ: u64 = 0x6100_003D;
    pub const SCE_SYMTABSZ: u64 = 0x6100_003F;
    /// First and last SCE tag value.
    pub const SCE_FIRST: u64 = 0x6100_0007;
    pub const SCE_LAST: u64 = 0x6100_003F;
}

/// `DF_TEXTREL` in `DT_FLAGS`.
pub const DF_TEXTREL: u64 = 0x4;
/// `DF_BIND_NOW` in `DT_FLAGS`.
pub const DF_BIND_NOW: u64 = 0x8;

/// Folds the SCE init/fini variant tags (`0x6000000C`–`0x60000021`) onto the standard tag.
pub fn canonical_tag(tag: u64) -> u64 {
    let base = dt::SCE_INIT_FINI_BASE;
    if (base + dt::INIT..=base + dt::PREINIT_ARRAYSZ).contains(&tag) {
        tag - base
    } else {
        tag
    }
}

/// One dynamic entry, with the file offset it was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DynEntry {
    /// `d_tag`.
    pub tag: u64,
    /// `d_val` / `d_ptr`.
    pub value: u64,
    /// Where the entry sits in the file.
    pub file_offset: u64,
}

/// Reads a dynamic table up to `DT_NULL` (or the end of the segment).
pub fn parse_entries(b: Bytes<'_>, offset: u64, size: u64) -> Result<Vec<DynEntry>> {
    b.slice(offset, size, "PT_DYNAMIC")?;
    let mut out = Vec::new();
    for i in 0..size / 16 {
        let o = offset + i * 16;
        let tag = b.u64(o, "d_tag")?;
        if tag == dt::NULL {
            break;
        }
        out.push(DynEntry {
            tag,
            value: b.u64(o + 8, "d_val")?,
            file_offset: o,
        });
    }
    Ok(out)
}

/// The first value of a tag.
pub fn find(entries: &[DynEntry], tag: u64) -> Option<DynEntry> {
    entries
        .iter()
        .copied()
        .find(|e| canonical_tag(e.tag) == tag)
}

/// A module id/name/version value (`DT_SCE_NEEDED_MODULE`, `DT_SCE_MODULE_INFO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModuleValue {
    /// String table offset of the name.
    pub name_offset: u32,
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
    /// Module id.
    pub id: u16,
}

impl ModuleValue {
    /// Splits the packed value.
    pub fn unpack(v: u64) -> Self {
        ModuleValue {
            name_offset: v as u32,
            minor: (v >> 32) as u8,
            major: (v >> 40) as u8,
            id: (v >> 48) as u16,
        }
    }

    /// Packs the value.
    pub fn pack(&self) -> u64 {
        self.name_offset as u64
            | (self.minor as u64) << 32
            | (self.major as u64) << 40
            | (self.id as u64) << 48
    }
}

/// A library id/name/version value (`DT_SCE_IMPORT_LIB`, `DT_SCE_EXPORT_LIB`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LibraryValue {
    /// String table offset of the name.
    pub name_offset: u32,
    /// Version.
    pub version: u16,
    /// Library id.
    pub id: u16,
}

impl LibraryValue {
    /// Splits the packed value.
    pub fn unpack(v: u64) -> Self {
        LibraryValue {
            name_offset: v as u32,
            version: (v >> 32) as u16,
            id: (v >> 48) as u16,
        }
    }

    /// Packs the value.
    pub fn pack(&self) -> u64 {
        self.name_offset as u64 | (self.version as u64) << 32 | (self.id as u64) << 48
    }
}

/// Splits an `*_ATTR` value into (id, attributes).
pub fn unpack_attr(v: u64) -> (u16, u64) {
    ((v >> 48) as u16, v & 0xffff_ffff_ffff)
}

/// Reads a string from a string table given as (file offset, size).
pub fn table_string<'a>(
    b: Bytes<'a>,
    strtab: (u64, u64),
    name_offset: u64,
    field: &'static str,
    at: u64,
) -> Result<&'a str> {
    if name_offset >= strtab.1 {
        return Err(Error::malformed(
            at,
            field,
            format!(
                "string offset {name_offset:#x} is past the string table size {:#x}",
                strtab.1
            ),
        ));
    }
    b.cstr(strtab.0 + name_offset, strtab.1 - name_offset, field)
}

/// Display name of a dynamic tag.
pub fn tag_name(tag: u64) -> String {
    let name = match canonical_tag(tag) {
        dt::NEEDED => "NEEDED",
        dt::PLTRELSZ => "PLTRELSZ",
        dt::PLTGOT => "PLTGOT",
        dt::HASH => "HASH",
        dt::STRTAB => "STRTAB",
        dt::SYMTAB => "SYMTAB",
        dt::RELA => "RELA",
        dt::RELASZ => "RELASZ",
        dt::RELAENT => "RELAENT",
        dt::STRSZ => "STRSZ",
        dt::SYMENT => "SYMENT",
        dt::INIT => "INIT",
        dt::FINI => "FINI",
        dt::SONAME => "SONAME",
        dt::PLTREL => "PLTREL",
        dt::DEBUG => "DEBUG",
        dt::TEXTREL => "TEXTREL",
        dt::JMPREL => "JMPREL",
        dt::INIT_ARRAY => "INIT_ARRAY",
        dt::FINI_ARRAY => "FINI_ARRAY",
        dt::INIT_ARRAYSZ => "INIT_ARRAYSZ",
        dt::FINI_ARRAYSZ => "FINI_ARRAYSZ",
        dt::FLAGS => "FLAGS",
        dt::PREINIT_ARRAY => "PREINIT_ARRAY",
        dt::PREINIT_ARRAYSZ => "PREINIT_ARRAYSZ",
        dt::SCE_FINGERPRINT => "SCE_FINGERPRINT",
        dt::SCE_FILENAME => "SCE_FILENAME",
        dt::SCE_MODULE_INFO => "SCE_MODULE_INFO",
        dt::SCE_NEEDED_MODULE => "SCE_NEEDED_MODULE",
        dt::SCE_MODULE_ATTR => "SCE_MODULE_ATTR",
        dt::SCE_EXPORT_LIB => "SCE_EXPORT_LIB",
        dt::SCE_IMPORT_LIB => "SCE_IMPORT_LIB",
        dt::SCE_EXPORT_LIB_ATTR => "SCE_EXPORT_LIB_ATTR",
        dt::SCE_IMPORT_LIB_ATTR => "SCE_IMPORT_LIB_ATTR",
        dt::SCE_HASH => "SCE_HASH",
        dt::SCE_PLTGOT => "SCE_PLTGOT",
        dt::SCE_JMPREL => "SCE_JMPREL",
        dt::SCE_PLTREL => "SCE_PLTREL",
        dt::SCE_PLTRELSZ => "SCE_PLTRELSZ",
        dt::SCE_RELA => "SCE_RELA",
        dt::SCE_RELASZ => "SCE_RELASZ",
        dt::SCE_RELAENT => "SCE_RELAENT",
        dt::SCE_STRTAB => "SCE_STRTAB",
        dt::SCE_STRSZ => "SCE_STRSZ",
        dt::SCE_SYMTAB => "SCE_SYMTAB",
        dt::SCE_SYMENT => "SCE_SYMENT",
        dt::SCE_HASHSZ => "SCE_HASHSZ",
        dt::SCE_SYMTABSZ => "SCE_SYMTABSZ",
        _ => return format!("{tag:#x}"),
    };
    name.to_string()
}
