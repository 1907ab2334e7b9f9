//! ELF64 structures and the constants the console adds to them.

use crate::bytes::Bytes;
use crate::error::{Error, Result};

/// `e_type` of a PS4/PS5 executable without ASLR.
pub const ET_SCE_EXEC: u16 = 0xFE00;
/// `e_type` of a PS4/PS5 executable with ASLR (the usual one), "DYNEXEC".
pub const ET_SCE_DYNEXEC: u16 = 0xFE10;
/// `e_type` of a PS4/PS5 module (`.prx`/`.sprx`).
pub const ET_SCE_DYNAMIC: u16 = 0xFE18;
/// `e_type` of a plain executable.
pub const ET_EXEC: u16 = 2;
/// `e_type` of a plain shared object or PIE.
pub const ET_DYN: u16 = 3;

/// `e_machine` of x86-64.
pub const EM_X86_64: u16 = 62;
/// `EI_OSABI` value for FreeBSD, which PS4/PS5 binaries carry.
pub const ELFOSABI_FREEBSD: u8 = 9;

/// Program header types.
pub mod pt {
    /// Unused entry.
    pub const NULL: u32 = 0;
    /// Loadable segment.
    pub const LOAD: u32 = 1;
    /// Dynamic table.
    pub const DYNAMIC: u32 = 2;
    /// Interpreter path.
    pub const INTERP: u32 = 3;
    /// Auxiliary note.
    pub const NOTE: u32 = 4;
    /// The program header table itself.
    pub const PHDR: u32 = 6;
    /// Thread-local storage template.
    pub const TLS: u32 = 7;
    /// `.eh_frame_hdr`.
    pub const GNU_EH_FRAME: u32 = 0x6474_e550;
    /// Stack flags.
    pub const GNU_STACK: u32 = 0x6474_e551;
    /// Read-only after relocation (GNU).
    pub const GNU_RELRO: u32 = 0x6474_e552;
    /// The SCE dynamic linking data (not loaded).
    pub const SCE_DYNLIBDATA: u32 = 0x6100_0000;
    /// Process parameters of an executable.
    pub const SCE_PROCPARAM: u32 = 0x6100_0001;
    /// Module parameters of a `.prx`.
    pub const SCE_MODULE_PARAM: u32 = 0x6100_0002;
    /// Read-only after relocation, as the console's loader maps it (a loaded segment).
    pub const SCE_RELRO: u32 = 0x6100_0010;
    /// SDK comment.
    pub const SCE_COMMENT: u32 = 0x6fff_ff00;
    /// SDK version.
    pub const SCE_VERSION: u32 = 0x6fff_ff01;
}

/// Name of a program header type, for display.
pub fn segment_type_name(p_type: u32) -> String {
    match p_type {
        pt::NULL => "NULL".into(),
        pt::LOAD => "LOAD".into(),
        pt::DYNAMIC => "DYNAMIC".into(),
        pt::INTERP => "INTERP".into(),
        pt::NOTE => "NOTE".into(),
        pt::PHDR => "PHDR".into(),
        pt::TLS => "TLS".into(),
        pt::GNU_EH_FRAME => "GNU_EH_FRAME".into(),
        pt::GNU_STACK => "GNU_STACK".into(),
        pt::GNU_RELRO => "GNU_RELRO".into(),
        pt::SCE_DYNLIBDATA => "SCE_DYNLIBDATA".into(),
        pt::SCE_PROCPARAM => "SCE_PROCPARAM".into(),
        pt::SCE_MODULE_PARAM => "SCE_MODULE_PARAM".into(),
        pt::SCE_RELRO => "SCE_RELRO".into(),
        pt::SCE_COMMENT => "SCE_COMMENT".into(),
        pt::SCE_VERSION => "SCE_VERSION".into(),
        other => format!("{other:#x}"),
    }
}

/// Segment permission flags.
pub mod pf {
    /// Executable.
    pub const X: u32 = 1;
    /// Writable.
    pub const W: u32 = 2;
    /// Readable.
    pub const R: u32 = 4;
}

/// Size of an ELF64 file header.
pub const EHDR_SIZE: u64 = 64;
/// Size of an ELF64 program header.
pub const PHDR_SIZE: u64 = 56;
/// Size of an ELF64 section header.
pub const SHDR_SIZE: u64 = 64;
/// Size of an ELF64 symbol.
pub const SYM_SIZE: u64 = 24;
/// Size of an ELF64 RELA entry.
pub const RELA_SIZE: u64 = 24;

/// The fields of the ELF64 file header that matter here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileHeader {
    /// `EI_OSABI`.
    pub os_abi: u8,
    /// `e_type`.
    pub e_type: u16,
    /// `e_machine`.
    pub machine: u16,
    /// `e_entry`.
    pub entry: u64,
    /// `e_phoff`.
    pub phoff: u64,
    /// `e_shoff`.
    pub shoff: u64,
    /// `e_flags`.
    pub flags: u32,
    /// `e_phnum`.
    pub phnum: u16,
    /// `e_shnum`.
    pub shnum: u16,
    /// `e_shstrndx`.
    pub shstrndx: u16,
}

impl FileHeader {
    /// Parses and validates the header at the start of `b`.
    pub fn parse(b: Bytes<'_>) -> Result<Self> {
        let magic = b.slice(0, 4, "e_ident[EI_MAG]")?;
        if magic != b"\x7fELF" {
            return Err(Error::malformed(0, "e_ident[EI_MAG]", "not an ELF file"));
        }
        if b.u8(4, "e_ident[EI_CLASS]")? != 2 {
            return Err(Error::malformed(
                4,
                "e_ident[EI_CLASS]",
                "only ELF64 is supported",
            ));
        }
        if b.u8(5, "e_ident[EI_DATA]")? != 1 {
            return Err(Error::malformed(
                5,
                "e_ident[EI_DATA]",
                "only little-endian is supported",
            ));
        }
        let h = FileHeader {
            os_abi: b.u8(7, "e_ident[EI_OSABI]")?,
            e_type: b.u16(16, "e_type")?,
            machine: b.u16(18, "e_machine")?,
            entry: b.u64(24, "e_entry")?,
            phoff: b.u64(32, "e_phoff")?,
            shoff: b.u64(40, "e_shoff")?,
            flags: b.u32(48, "e_flags")?,
            phnum: b.u16(56, "e_phnum")?,
            shnum: b.u16(60, "e_shnum")?,
            shstrndx: b.u16(62, "e_shstrndx")?,
        };
        if h.machine != EM_X86_64 {
            return Err(Error::malformed(
                18,
                "e_machine",
                format!("{:#x} is not x86-64 (62)", h.machine),
            ));
        }
        let phentsize = b.u16(54, "e_phentsize")?;
        if h.phnum > 0 && phentsize as u64 != PHDR_SIZE {
            return Err(Error::malformed(
                54,
                "e_phentsize",
                format!("{phentsize} is not 56"),
            ));
        }
        Ok(h)
    }
}

/// One program header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramHeader {
    /// `p_type`.
    pub p_type: u32,
    /// `p_flags` (see [`pf`]).
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_vaddr`.
    pub vaddr: u64,
    /// `p_paddr`.
    pub paddr: u64,
    /// `p_filesz`.
    pub filesz: u64,
    /// `p_memsz`.
    pub memsz: u64,
    /// `p_align`.
    pub align: u64,
}

impl ProgramHeader {
    /// Parses the program header at `off`.
    pub fn parse(b: Bytes<'_>, off: u64) -> Result<Self> {
        b.slice(off, PHDR_SIZE, "program header")?;
        Ok(ProgramHeader {
            p_type: b.u32(off, "p_type")?,
            flags: b.u32(off + 4, "p_flags")?,
            offset: b.u64(off + 8, "p_offset")?,
            vaddr: b.u64(off + 16, "p_vaddr")?,
            paddr: b.u64(off + 24, "p_paddr")?,
            filesz: b.u64(off + 32, "p_filesz")?,
            memsz: b.u64(off + 40, "p_memsz")?,
            align: b.u64(off + 48, "p_align")?,
        })
    }

    /// Serializes the header.
    pub fn to_bytes(&self) -> [u8; 56] {
        let mut out = [0u8; 56];
        out[0..4].copy_from_slice(&self.p_type.to_le_bytes());
        out[4..8].copy_from_slice(&self.flags.to_le_bytes());
        out[8..16].copy_from_slice(&self.offset.to_le_bytes());
        out[16..24].copy_from_slice(&self.vaddr.to_le_bytes());
        out[24..32].copy_from_slice(&self.paddr.to_le_bytes());
        out[32..40].copy_from_slice(&self.filesz.to_le_bytes());
        out[40..48].copy_from_slice(&self.memsz.to_le_bytes());
        out[48..56].copy_from_slice(&self.align.to_le_bytes());
        out
    }

    /// True for segments that the loader maps into memory.
    pub fn is_loaded(&self) -> bool {
        matches!(self.p_type, pt::LOAD | pt::SCE_RELRO)
    }

    /// `rwx` text of the flags.
    pub fn flags_text(&self) -> String {
        let f = |bit, c| if self.flags & bit != 0 { c } else { '-' };
        [f(pf::R, 'r'), f(pf::W, 'w'), f(pf::X, 'x')]
            .iter()
            .collect()
    }
}

/// One section header (only present in unstripped plain ELF input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionHeader {
    /// Name, from the section name string table.
    pub name: String,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
}

/// Parses the section headers, if the file has them and they lie within the file.
///
/// A SELF strips the section headers while the ELF header still names them, so headers
/// that lie outside the file are treated as absent rather than as an error.
pub fn parse_sections(b: Bytes<'_>, h: &FileHeader) -> Result<Vec<SectionHeader>> {
    if h.shnum == 0 || h.shoff == 0 {
        return Ok(Vec::new());
    }
    let table_len = h.shnum as u64 * SHDR_SIZE;
    if b.slice(h.shoff, table_len, "section headers").is_err() {
        return Ok(Vec::new());
    }
    let raw: Vec<(u32, u32, u64, u64, u64, u64)> = (0..h.shnum as u64)
        .map(|i| {
            let o = h.shoff + i * SHDR_SIZE;
            Ok((
                b.u32(o, "sh_name")?,
                b.u32(o + 4, "sh_type")?,
                b.u64(o + 8, "sh_flags")?,
                b.u64(o + 16, "sh_addr")?,
                b.u64(o + 24, "sh_offset")?,
                b.u64(o + 32, "sh_size")?,
            ))
        })
        .collect::<Result<_>>()?;
    let strtab = raw.get(h.shstrndx as usize).map(|s| (s.4, s.5));
    raw.into_iter()
        .map(|(name, sh_type, flags, addr, offset, size)| {
            let name = match strtab {
                Some((so, ss)) if (name as u64) < ss => b
                    .cstr(so.saturating_add(name as u64), ss - name as u64, "sh_name")?
                    .to_string(),
                _ => String::new(),
            };
            Ok(SectionHeader {
                name,
                sh_type,
                flags,
                addr,
                offset,
                size,
            })
        })
        .collect()
}
