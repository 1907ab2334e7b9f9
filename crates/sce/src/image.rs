//! [`Image`]: a parsed PS5/PS4 executable or module (or a plain x86-64 ELF).

use crate::bytes::Bytes;
use crate::dynamic::{self, dt, DynEntry, LibraryValue, ModuleValue};
use crate::elf::{
    self, pt, FileHeader, ProgramHeader, SectionHeader, PHDR_SIZE, RELA_SIZE, SYM_SIZE,
};
use crate::error::{Error, Result};
use crate::nid::{self, SymbolNid};
use crate::self_file::{self, SelfHeader};

/// What wrapped the ELF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Container {
    /// A bare ELF file.
    Elf,
    /// A fake (unencrypted) SELF.
    FakeSelf(SelfHeader),
}

/// A module the binary imports from, or the binary's own module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// Id used in `NID#L#M` suffixes.
    pub id: u16,
    /// Name, such as `libkernel`.
    pub name: String,
    /// Major version.
    pub version_major: u8,
    /// Minor version.
    pub version_minor: u8,
}

/// A library the binary imports from or exports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Library {
    /// Id used in `NID#L#M` suffixes.
    pub id: u16,
    /// Name, such as `libScePosix`.
    pub name: String,
    /// Version.
    pub version: u16,
    /// Attributes from `DT_SCE_*_LIB_ATTR`, when present.
    pub attributes: Option<u64>,
}

/// Binding and type of a symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SymbolKind {
    /// `STT_NOTYPE`.
    NoType,
    /// `STT_OBJECT`.
    Object,
    /// `STT_FUNC`.
    Func,
    /// `STT_TLS`.
    Tls,
    /// Another type value.
    Other(u8),
}

impl SymbolKind {
    /// From the low 4 bits of `st_info`.
    pub fn from_info(info: u8) -> Self {
        match info & 0xf {
            0 => SymbolKind::NoType,
            1 => SymbolKind::Object,
            2 => SymbolKind::Func,
            6 => SymbolKind::Tls,
            t => SymbolKind::Other(t),
        }
    }

    /// The `st_info` type bits.
    pub fn to_bits(self) -> u8 {
        match self {
            SymbolKind::NoType => 0,
            SymbolKind::Object => 1,
            SymbolKind::Func => 2,
            SymbolKind::Tls => 6,
            SymbolKind::Other(t) => t,
        }
    }

    /// Lower-case display name.
    pub fn name(self) -> &'static str {
        match self {
            SymbolKind::NoType => "notype",
            SymbolKind::Object => "object",
            SymbolKind::Func => "func",
            SymbolKind::Tls => "tls",
            SymbolKind::Other(_) => "other",
        }
    }
}

/// `STB_LOCAL`.
pub const STB_LOCAL: u8 = 0;
/// `STB_GLOBAL`.
pub const STB_GLOBAL: u8 = 1;
/// `STB_WEAK`.
pub const STB_WEAK: u8 = 2;

/// One entry of the dynamic symbol table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Name as stored (a `NID#L#M` string in SCE binaries).
    pub name: String,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// Binding (`STB_*`).
    pub bind: u8,
    /// Type.
    pub kind: SymbolKind,
    /// `st_other` (visibility).
    pub other: u8,
    /// `st_shndx`; 0 means undefined.
    pub shndx: u16,
}

impl Symbol {
    /// True for an undefined symbol.
    pub fn is_undefined(&self) -> bool {
        self.shndx == 0
    }
}

/// One RELA entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relocation {
    /// Address (virtual) the relocation patches.
    pub offset: u64,
    /// `R_X86_64_*` type.
    pub kind: u32,
    /// Symbol table index (0 for none).
    pub symbol: u32,
    /// Addend.
    pub addend: i64,
    /// True when it came from the PLT (JMPREL) table.
    pub plt: bool,
}

/// x86-64 relocation types that PS4/PS5 binaries use.
pub mod r_x86_64 {
    #![allow(missing_docs)]
    pub const NONE: u32 = 0;
    pub const R64: u32 = 1;
    pub const PC32: u32 = 2;
    pub const GLOB_DAT: u32 = 6;
    pub const JUMP_SLOT: u32 = 7;
    pub const RELATIVE: u32 = 8;
    pub const DTPMOD64: u32 = 16;
    pub const DTPOFF64: u32 = 17;
    pub const TPOFF64: u32 = 18;
    pub const IRELATIVE: u32 = 37;
}

/// Display name of a relocation type.
pub fn relocation_name(kind: u32) -> String {
    match kind {
        r_x86_64::NONE => "NONE".into(),
        r_x86_64::R64 => "64".into(),
        r_x86_64::PC32 => "PC32".into(),
        r_x86_64::GLOB_DAT => "GLOB_DAT".into(),
        r_x86_64::JUMP_SLOT => "JUMP_SLOT".into(),
        r_x86_64::RELATIVE => "RELATIVE".into(),
        r_x86_64::DTPMOD64 => "DTPMOD64".into(),
        r_x86_64::DTPOFF64 => "DTPOFF64".into(),
        r_x86_64::TPOFF64 => "TPOFF64".into(),
        r_x86_64::IRELATIVE => "IRELATIVE".into(),
        other => format!("type {other}"),
    }
}

/// An imported symbol, resolved to its library and module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// Index in [`Image::symbols`].
    pub symbol: usize,
    /// The NID (computed from the name for plain ELF input).
    pub nid: String,
    /// Library name (`None` for plain ELF input).
    pub library: Option<String>,
    /// Module name (`None` for plain ELF input).
    pub module: Option<String>,
    /// The plain name for plain ELF input; SCE binaries carry only NIDs.
    pub plain_name: Option<String>,
    /// Symbol type.
    pub kind: SymbolKind,
    /// Weak binding.
    pub weak: bool,
}

/// An exported (defined, global) symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    /// Index in [`Image::symbols`].
    pub symbol: usize,
    /// The NID.
    pub nid: String,
    /// Library name (`None` for plain ELF input).
    pub library: Option<String>,
    /// The plain name for plain ELF input.
    pub plain_name: Option<String>,
    /// Address.
    pub value: u64,
    /// Size.
    pub size: u64,
    /// Symbol type.
    pub kind: SymbolKind,
}

/// The process or module parameter block header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamInfo {
    /// Virtual address of the block.
    pub vaddr: u64,
    /// `size` field.
    pub size: u64,
    /// Magic (`ORBI` for process params).
    pub magic: u32,
    /// Number of entries.
    pub entry_count: u32,
    /// SDK version the binary was built with.
    pub sdk_version: u32,
}

/// A parsed binary.
#[derive(Debug, Clone)]
pub struct Image {
    /// What wrapped the ELF.
    pub container: Container,
    /// The ELF bytes (unwrapped from the SELF when there was one).
    pub elf: Vec<u8>,
    /// File header.
    pub header: FileHeader,
    /// Program headers, in file order.
    pub segments: Vec<ProgramHeader>,
    /// Section headers, when present.
    pub sections: Vec<SectionHeader>,
    /// Raw dynamic entries.
    pub dynamic: Vec<DynEntry>,
    /// True when the dynamic table uses the SCE tags.
    pub is_sce: bool,
    /// `DT_NEEDED` file names.
    pub needed_files: Vec<String>,
    /// Modules the binary imports from.
    pub needed_modules: Vec<Module>,
    /// The binary's own module (`DT_SCE_MODULE_INFO`).
    pub own_module: Option<Module>,
    /// Libraries the binary imports from.
    pub import_libraries: Vec<Library>,
    /// Libraries the binary exports.
    pub export_libraries: Vec<Library>,
    /// The dynamic symbol table.
    pub symbols: Vec<Symbol>,
    /// RELA relocations.
    pub relocations: Vec<Relocation>,
    /// JMPREL (PLT) relocations.
    pub plt_relocations: Vec<Relocation>,
    /// `DT_SCE_PLTGOT` / `DT_PLTGOT`: virtual address of the GOT.
    pub pltgot: Option<u64>,
    /// `DT_SCE_FILENAME`.
    pub file_name: Option<String>,
    /// Imports, in symbol table order.
    pub imports: Vec<Import>,
    /// Exports, in symbol table order.
    pub exports: Vec<Export>,
    /// Process or module parameters.
    pub param: Option<ParamInfo>,
}

/// Where the dynamic tables live: SCE tables are offsets into the dynlib-data segment,
/// plain ones are virtual addresses.
enum TableBase {
    Sce { offset: u64, size: u64 },
    Plain,
}

impl Image {
    /// Parses a SELF or ELF file.
    pub fn parse(data: &[u8]) -> Result<Image> {
        let (container, elf) = match self_file::detect(data) {
            Some(_) => {
                let (h, e) = self_file::unwrap(data)?;
                (Container::FakeSelf(h), e)
            }
            None => (Container::Elf, data.to_vec()),
        };
        Self::parse_elf(container, elf)
    }

    /// Parses a SELF or ELF file it may keep, saving a copy of a large plain ELF.
    pub fn parse_owned(data: Vec<u8>) -> Result<Image> {
        if self_file::detect(&data).is_some() {
            return Self::parse(&data);
        }
        Self::parse_elf(Container::Elf, data)
    }

    fn parse_elf(container: Container, elf: Vec<u8>) -> Result<Image> {
        let b = Bytes::new(&elf);
        let header = FileHeader::parse(b)?;
        let segments = (0..header.phnum as u64)
            .map(|i| ProgramHeader::parse(b, header.phoff.saturating_add(i * PHDR_SIZE)))
            .collect::<Result<Vec<_>>>()?;
        let sections = elf::parse_sections(b, &header)?;
        let mut image = Image {
            container,
            header,
            segments,
            sections,
            dynamic: Vec::new(),
            is_sce: false,
            needed_files: Vec::new(),
            needed_modules: Vec::new(),
            own_module: None,
            import_libraries: Vec::new(),
            export_libraries: Vec::new(),
            symbols: Vec::new(),
            relocations: Vec::new(),
            plt_relocations: Vec::new(),
            pltgot: None,
            file_name: None,
            imports: Vec::new(),
            exports: Vec::new(),
            param: None,
            elf: Vec::new(),
        };
        image.parse_dynamic(b)?;
        image.parse_param(b)?;
        image.elf = elf;
        Ok(image)
    }

    /// The first program header of a type.
    pub fn segment(&self, p_type: u32) -> Option<&ProgramHeader> {
        self.segments.iter().find(|s| s.p_type == p_type)
    }

    /// True for a module (`.prx`) rather than an executable.
    pub fn is_module(&self) -> bool {
        self.header.e_type == elf::ET_SCE_DYNAMIC
            || (!self.is_sce && self.header.e_type == elf::ET_DYN && self.header.entry == 0)
    }

    /// Human-readable name of `e_type`.
    pub fn type_name(&self) -> String {
        match self.header.e_type {
            elf::ET_SCE_EXEC => "ET_SCE_EXEC (executable)".into(),
            elf::ET_SCE_DYNEXEC => "ET_SCE_DYNEXEC (executable)".into(),
            elf::ET_SCE_DYNAMIC => "ET_SCE_DYNAMIC (module)".into(),
            elf::ET_EXEC => "ET_EXEC".into(),
            elf::ET_DYN => "ET_DYN".into(),
            t => format!("{t:#x}"),
        }
    }

    /// Translates a virtual address to a file offset through the loaded segments.
    pub fn vaddr_to_offset(&self, vaddr: u64, len: u64) -> Option<u64> {
        self.segments
            .iter()
            .filter(|s| s.is_loaded())
            .find_map(|s| {
                let end = vaddr.checked_add(len)?;
                (vaddr >= s.vaddr && end <= s.vaddr.saturating_add(s.filesz))
                    .then(|| s.offset.saturating_add(vaddr - s.vaddr))
            })
    }

    /// The dynamic tag's value, if present.
    pub fn dyn_value(&self, tag: u64) -> Option<u64> {
        dynamic::find(&self.dynamic, tag).map(|e| e.value)
    }

    fn parse_dynamic(&mut self, b: Bytes<'_>) -> Result<()> {
        let Some(dynseg) = self.segment(pt::DYNAMIC).copied() else {
            return Ok(());
        };
        let entries = dynamic::parse_entries(b, dynseg.offset, dynseg.filesz)?;
        self.is_sce = entries
            .iter()
            .any(|e| (dt::SCE_FIRST..=dt::SCE_LAST).contains(&e.tag));
        let base = if self.is_sce {
            let seg = self.segment(pt::SCE_DYNLIBDATA).copied().ok_or_else(|| {
                Error::malformed(
                    self.header.phoff,
                    "program headers",
                    "SCE dynamic tags without a PT_SCE_DYNLIBDATA segment",
                )
            })?;
            b.slice(seg.offset, seg.filesz, "PT_SCE_DYNLIBDATA")?;
            TableBase::Sce {
                offset: seg.offset,
                size: seg.filesz,
            }
        } else {
            TableBase::Plain
        };
        self.dynamic = entries;

        let (
            t_strtab,
            t_strsz,
            t_symtab,
            t_symsz,
            t_rela,
            t_relasz,
            t_jmprel,
            t_pltrelsz,
            t_pltgot,
        ) = if self.is_sce {
            (
                dt::SCE_STRTAB,
                dt::SCE_STRSZ,
                dt::SCE_SYMTAB,
                dt::SCE_SYMTABSZ,
                dt::SCE_RELA,
                dt::SCE_RELASZ,
                dt::SCE_JMPREL,
                dt::SCE_PLTRELSZ,
                dt::SCE_PLTGOT,
            )
        } else {
            (
                dt::STRTAB,
                dt::STRSZ,
                dt::SYMTAB,
                0,
                dt::RELA,
                dt::RELASZ,
                dt::JMPREL,
                dt::PLTRELSZ,
                dt::PLTGOT,
            )
        };
        self.pltgot = self.dyn_value(t_pltgot);
        let strtab = match self.table(b, &base, t_strtab, Some(t_strsz), "string table")? {
            Some(t) => t,
            None => return Ok(()),
        };

        // Symbols: SCE gives the table size; plain ELF needs the section or the hash table.
        let symtab = if self.is_sce {
            self.table(b, &base, t_symtab, Some(t_symsz), "symbol table")?
        } else {
            self.plain_symtab(b)?
        };
        if let Some((off, size)) = symtab {
            self.symbols = (0..size / SYM_SIZE)
                .map(|i| parse_symbol(b, strtab, off + i * SYM_SIZE))
                .collect::<Result<_>>()?;
        }
        if let Some((off, size)) = self.table(b, &base, t_rela, Some(t_relasz), "RELA table")? {
            self.relocations = self.parse_relocations(b, off, size, false)?;
        }
        if let Some((off, size)) =
            self.table(b, &base, t_jmprel, Some(t_pltrelsz), "JMPREL table")?
        {
            self.plt_relocations = self.parse_relocations(b, off, size, true)?;
        }
        self.parse_names(b, strtab)?;
        self.resolve_symbols()?;
        Ok(())
    }

    /// Resolves a (pointer tag, size tag) pair into a checked (file offset, size).
    fn table(
        &self,
        b: Bytes<'_>,
        base: &TableBase,
        tag: u64,
        size_tag: Option<u64>,
        what: &'static str,
    ) -> Result<Option<(u64, u64)>> {
        let Some(entry) = dynamic::find(&self.dynamic, tag) else {
            return Ok(None);
        };
        let size = match size_tag.and_then(|t| dynamic::find(&self.dynamic, t)) {
            Some(s) => s.value,
            None => 0,
        };
        let off = match base {
            TableBase::Sce { offset, size: seg } => {
                let end = entry.value.checked_add(size);
                if end.is_none_or(|e| e > *seg) {
                    return Err(Error::malformed(
                        entry.file_offset,
                        what,
                        format!(
                            "{size:#x} bytes at {:#x} run past the {seg:#x}-byte dynlib-data segment",
                            entry.value
                        ),
                    ));
                }
                offset + entry.value
            }
            TableBase::Plain => self.vaddr_to_offset(entry.value, size).ok_or_else(|| {
                Error::malformed(
                    entry.file_offset,
                    what,
                    format!("address {:#x} is in no loaded segment", entry.value),
                )
            })?,
        };
        b.slice(off, size, what)?;
        Ok(Some((off, size)))
    }

    fn plain_symtab(&self, b: Bytes<'_>) -> Result<Option<(u64, u64)>> {
        const SHT_DYNSYM: u32 = 11;
        if let Some(s) = self.sections.iter().find(|s| s.sh_type == SHT_DYNSYM) {
            b.slice(s.offset, s.size, ".dynsym")?;
            return Ok(Some((s.offset, s.size)));
        }
        let (Some(sym), Some(hash)) = (self.dyn_value(dt::SYMTAB), self.dyn_value(dt::HASH)) else {
            return Ok(None);
        };
        let hash_off = self
            .vaddr_to_offset(hash, 8)
            .ok_or_else(|| Error::malformed(0, "DT_HASH", "address is in no loaded segment"))?;
        let count = b.u32(hash_off + 4, "nchain")? as u64;
        let off = self
            .vaddr_to_offset(sym, count * SYM_SIZE)
            .ok_or_else(|| Error::malformed(0, "DT_SYMTAB", "table is in no loaded segment"))?;
        Ok(Some((off, count * SYM_SIZE)))
    }

    fn parse_relocations(
        &self,
        b: Bytes<'_>,
        off: u64,
        size: u64,
        plt: bool,
    ) -> Result<Vec<Relocation>> {
        if !size.is_multiple_of(RELA_SIZE) {
            return Err(Error::malformed(
                off,
                if plt { "JMPREL size" } else { "RELA size" },
                format!("{size:#x} is not a multiple of 24"),
            ));
        }
        (0..size / RELA_SIZE)
            .map(|i| {
                let o = off + i * RELA_SIZE;
                let info = b.u64(o + 8, "r_info")?;
                let r = Relocation {
                    offset: b.u64(o, "r_offset")?,
                    kind: info as u32,
                    symbol: (info >> 32) as u32,
                    addend: b.u64(o + 16, "r_addend")? as i64,
                    plt,
                };
                if r.symbol as usize >= self.symbols.len() && r.symbol != 0 {
                    return Err(Error::malformed(
                        o + 8,
                        "r_info",
                        format!(
                            "symbol index {} is past the {}-entry symbol table",
                            r.symbol,
                            self.symbols.len()
                        ),
                    ));
                }
                Ok(r)
            })
            .collect()
    }

    fn parse_names(&mut self, b: Bytes<'_>, strtab: (u64, u64)) -> Result<()> {
        let s = |e: &DynEntry, off: u64, field| -> Result<String> {
            Ok(dynamic::table_string(b, strtab, off, field, e.file_offset)?.to_string())
        };
        let mut import_attrs = Vec::new();
        let mut export_attrs = Vec::new();
        for e in self.dynamic.clone() {
            match dynamic::canonical_tag(e.tag) {
                dt::NEEDED => self.needed_files.push(s(&e, e.value, "DT_NEEDED")?),
                dt::SCE_FILENAME => self.file_name = Some(s(&e, e.value, "DT_SCE_FILENAME")?),
                dt::SCE_NEEDED_MODULE | dt::SCE_MODULE_INFO => {
                    let v = ModuleValue::unpack(e.value);
                    let m = Module {
                        id: v.id,
                        name: s(&e, v.name_offset as u64, "module name")?,
                        version_major: v.major,
                        version_minor: v.minor,
                    };
                    if e.tag == dt::SCE_MODULE_INFO {
                        self.own_module = Some(m);
                    } else {
                        self.needed_modules.push(m);
                    }
                }
                dt::SCE_IMPORT_LIB | dt::SCE_EXPORT_LIB => {
                    let v = LibraryValue::unpack(e.value);
                    let l = Library {
                        id: v.id,
                        name: s(&e, v.name_offset as u64, "library name")?,
                        version: v.version,
                        attributes: None,
                    };
                    if e.tag == dt::SCE_IMPORT_LIB {
                        self.import_libraries.push(l);
                    } else {
                        self.export_libraries.push(l);
                    }
                }
                dt::SCE_IMPORT_LIB_ATTR => import_attrs.push(dynamic::unpack_attr(e.value)),
                dt::SCE_EXPORT_LIB_ATTR => export_attrs.push(dynamic::unpack_attr(e.value)),
                _ => {}
            }
        }
        for (libs, attrs) in [
            (&mut self.import_libraries, import_attrs),
            (&mut self.export_libraries, export_attrs),
        ] {
            for (id, attr) in attrs {
                if let Some(l) = libs.iter_mut().find(|l| l.id == id) {
                    l.attributes = Some(attr);
                }
            }
        }
        Ok(())
    }

    fn resolve_symbols(&mut self) -> Result<()> {
        let symtab_off = if self.is_sce {
            self.dyn_value(dt::SCE_SYMTAB)
                .zip(self.segment(pt::SCE_DYNLIBDATA).map(|s| s.offset))
                .map(|(a, b)| a.wrapping_add(b))
                .unwrap_or(0)
        } else {
            0
        };
        for (i, sym) in self.symbols.iter().enumerate() {
            if i == 0 || sym.name.is_empty() || !(sym.bind == STB_GLOBAL || sym.bind == STB_WEAK) {
                continue;
            }
            let at = symtab_off.wrapping_add(i as u64 * SYM_SIZE);
            if !self.is_sce {
                let plain_name = Some(sym.name.clone());
                let nid = nid::nid_of(&sym.name);
                if sym.is_undefined() {
                    self.imports.push(Import {
                        symbol: i,
                        nid,
                        library: None,
                        module: None,
                        plain_name,
                        kind: sym.kind,
                        weak: sym.bind == STB_WEAK,
                    });
                } else {
                    self.exports.push(Export {
                        symbol: i,
                        nid,
                        library: None,
                        plain_name,
                        value: sym.value,
                        size: sym.size,
                        kind: sym.kind,
                    });
                }
                continue;
            }
            // SCE symbols without a `#L#M` suffix (such as a weak `module_start`) are
            // neither imports nor exports.
            let Some(parsed) = SymbolNid::parse(&sym.name) else {
                continue;
            };
            if sym.is_undefined() {
                let lib = self
                    .import_libraries
                    .iter()
                    .find(|l| l.id as u32 == parsed.library)
                    .ok_or_else(|| {
                        Error::malformed(
                            at,
                            "st_name",
                            format!(
                                "{}: library id {} names no imported library",
                                sym.name, parsed.library
                            ),
                        )
                    })?;
                let module = self
                    .needed_modules
                    .iter()
                    .find(|m| m.id as u32 == parsed.module)
                    .ok_or_else(|| {
                        Error::malformed(
                            at,
                            "st_name",
                            format!(
                                "{}: module id {} names no needed module",
                                sym.name, parsed.module
                            ),
                        )
                    })?;
                self.imports.push(Import {
                    symbol: i,
                    nid: parsed.nid,
                    library: Some(lib.name.clone()),
                    module: Some(module.name.clone()),
                    plain_name: None,
                    kind: sym.kind,
                    weak: sym.bind == STB_WEAK,
                });
            } else {
                let lib = self
                    .export_libraries
                    .iter()
                    .find(|l| l.id as u32 == parsed.library)
                    .map(|l| l.name.clone());
                self.exports.push(Export {
                    symbol: i,
                    nid: parsed.nid,
                    library: lib,
                    plain_name: None,
                    value: sym.value,
                    size: sym.size,
                    kind: sym.kind,
                });
            }
        }
        Ok(())
    }

    fn parse_param(&mut self, b: Bytes<'_>) -> Result<()> {
        let Some(seg) = self
            .segments
            .iter()
            .find(|s| matches!(s.p_type, pt::SCE_PROCPARAM | pt::SCE_MODULE_PARAM))
            .copied()
        else {
            return Ok(());
        };
        if seg.filesz < 0x14 {
            return Err(Error::malformed(
                seg.offset,
                "PROCPARAM",
                format!("{:#x} bytes is too small for a parameter block", seg.filesz),
            ));
        }
        b.slice(seg.offset, seg.filesz, "PROCPARAM")?;
        self.param = Some(ParamInfo {
            vaddr: seg.vaddr,
            size: b.u64(seg.offset, "param size")?,
            magic: b.u32(seg.offset + 8, "param magic")?,
            entry_count: b.u32(seg.offset + 12, "param entry count")?,
            sdk_version: b.u32(seg.offset + 16, "param SDK version")?,
        });
        Ok(())
    }
}

fn parse_symbol(b: Bytes<'_>, strtab: (u64, u64), o: u64) -> Result<Symbol> {
    let name_off = b.u32(o, "st_name")? as u64;
    let info = b.u8(o + 4, "st_info")?;
    let name = if name_off == 0 {
        String::new()
    } else {
        dynamic::table_string(b, strtab, name_off, "st_name", o)?.to_string()
    };
    Ok(Symbol {
        name,
        bind: info >> 4,
        kind: SymbolKind::from_info(info),
        other: b.u8(o + 5, "st_other")?,
        shndx: b.u16(o + 6, "st_shndx")?,
        value: b.u64(o + 8, "st_value")?,
        size: b.u64(o + 16, "st_size")?,
    })
}
