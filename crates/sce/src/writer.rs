//! Writes an SCE ELF (PS5/PS4 executable or module) from a normal x86-64 PIE or
//! shared object, the way the console toolchains' final conversion step does.
//!
//! The loaded segments are kept byte for byte at their offsets and addresses. The SysV
//! dynamic tables stay in place as dead bytes; new SCE tables (string table with
//! `NID#L#M` names, symbols, RELA, JMPREL, hash, dynamic) are appended in a
//! `PT_SCE_DYNLIBDATA` segment that is not loaded. The program headers are rewritten,
//! and moved to the end of the file when the new set does not fit in place. The
//! process or module parameter block is filled in the section that the crt reserves
//! (`.sce_process_param` or `.sce_module_param`), or appended as a segment of its own.

use std::collections::BTreeMap;

use sha1::{Digest, Sha1};

use crate::dynamic::{dt, LibraryValue, ModuleValue};
use crate::elf::{self, pf, pt, ProgramHeader, PHDR_SIZE};
use crate::error::{Error, Result};
use crate::image::{Image, Relocation, Symbol, STB_WEAK};
use crate::nid::{nid_of, SymbolNid};
use crate::strtab::{self, StringTable};

/// What the output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// An executable (`ET_SCE_DYNEXEC`, with a process parameter block).
    Executable,
    /// A module, `.prx` (`ET_SCE_DYNAMIC`, with a module parameter block).
    Module,
}

/// Where the console exports an imported symbol.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ImportBinding {
    /// Module name, such as `libkernel`.
    pub module: String,
    /// Library name, such as `libScePosix`.
    pub library: String,
}

/// How to write the output.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    /// Executable or module.
    pub kind: OutputKind,
    /// SDK version recorded in the parameter block (`0x0450_8101` reads "4.508.101").
    pub sdk_version: u32,
    /// Name of the binary's own module and of the library it exports.
    pub module_name: String,
    /// File name recorded as `DT_SCE_FILENAME`.
    pub file_name: String,
    /// Placement of every symbol the input imports, by plain name.
    pub imports: BTreeMap<String, ImportBinding>,
}

/// Magic of the process parameter block ("ORBI").
pub const PROCESS_PARAM_MAGIC: u32 = u32::from_le_bytes(*b"ORBI");
/// Magic of the module parameter block.
pub const MODULE_PARAM_MAGIC: u32 = 0x3c13_f4bf;
/// Size of the process parameter block.
pub const PROCESS_PARAM_SIZE: u64 = 0x50;
/// Size of the module parameter block.
pub const MODULE_PARAM_SIZE: u64 = 0x18;
/// `DT_SCE_IMPORT_LIB_ATTR` attributes that console binaries carry.
const IMPORT_LIB_ATTR: u64 = 0x9;
/// `DT_SCE_EXPORT_LIB_ATTR` attributes that console binaries carry.
const EXPORT_LIB_ATTR: u64 = 0x1;
const PAGE: u64 = 0x4000;

/// Converts `input` (a linked x86-64 PIE or shared object) to an SCE ELF.
pub fn write(input: &[u8], opts: &WriteOptions) -> Result<Vec<u8>> {
    let img = Image::parse(input)?;
    if img.is_sce {
        return Err(Error::Unsupported("the input is already an SCE ELF".into()));
    }
    if img.header.e_type != elf::ET_DYN {
        return Err(Error::Unsupported(
            "the input must be position-independent (ET_DYN: a PIE or shared object)".into(),
        ));
    }
    if img.segment(pt::DYNAMIC).is_none() {
        return Err(Error::Unsupported(
            "the input has no PT_DYNAMIC segment".into(),
        ));
    }
    let plan = SymbolPlan::new(&img, opts)?;
    let mut out = input.to_vec();
    let param = place_param(&img, opts, &mut out)?;
    let dynlib = build_dynlib(&img, opts, &plan, input)?;

    // Append the dynlib data, then the program headers when they do not fit in place.
    align_file(&mut out, 16);
    let dynlib_off = out.len() as u64;
    out.extend_from_slice(&dynlib.bytes);
    let mut phdrs = output_segments(&img, param.segment)?;
    phdrs.push(ProgramHeader {
        p_type: pt::DYNAMIC,
        flags: pf::R | pf::W,
        offset: dynlib_off + dynlib.dynamic_offset,
        vaddr: 0,
        paddr: 0,
        filesz: dynlib.dynamic_size,
        memsz: dynlib.dynamic_size,
        align: 8,
    });
    phdrs.push(ProgramHeader {
        p_type: param.p_type,
        flags: pf::R,
        offset: param.file_offset,
        vaddr: param.vaddr,
        paddr: param.vaddr,
        filesz: param.size,
        memsz: param.size,
        align: 8,
    });
    phdrs.push(ProgramHeader {
        p_type: pt::SCE_DYNLIBDATA,
        flags: pf::R,
        offset: dynlib_off,
        vaddr: 0,
        paddr: 0,
        filesz: dynlib.bytes.len() as u64,
        memsz: 0,
        align: 16,
    });
    let in_place = img.header.phoff + img.header.phnum as u64 * PHDR_SIZE;
    let phoff = if img.header.phoff + phdrs.len() as u64 * PHDR_SIZE <= in_place {
        // Clear the old table so no stale entry is left behind.
        out[img.header.phoff as usize..in_place as usize].fill(0);
        img.header.phoff
    } else {
        align_file(&mut out, 8);
        out.len() as u64
    };
    let table: Vec<u8> = phdrs.iter().flat_map(|p| p.to_bytes()).collect();
    if phoff as usize == out.len() {
        out.extend_from_slice(&table);
    } else {
        out[phoff as usize..phoff as usize + table.len()].copy_from_slice(&table);
    }

    // ELF header: SCE type, FreeBSD ABI, no section headers (their tables are stale).
    out[7] = elf::ELFOSABI_FREEBSD;
    let e_type = match opts.kind {
        OutputKind::Executable => elf::ET_SCE_DYNEXEC,
        OutputKind::Module => elf::ET_SCE_DYNAMIC,
    };
    out[16..18].copy_from_slice(&e_type.to_le_bytes());
    if opts.kind == OutputKind::Module {
        out[24..32].copy_from_slice(&0u64.to_le_bytes());
    }
    out[32..40].copy_from_slice(&phoff.to_le_bytes());
    out[40..48].copy_from_slice(&0u64.to_le_bytes());
    out[56..58].copy_from_slice(&(phdrs.len() as u16).to_le_bytes());
    out[58..60].copy_from_slice(&(elf::SHDR_SIZE as u16).to_le_bytes());
    out[60..64].copy_from_slice(&[0, 0, 0, 0]);
    Ok(out)
}

fn align_file(out: &mut Vec<u8>, align: usize) {
    let len = out.len().next_multiple_of(align);
    out.resize(len, 0);
}

/// The input's loaded segments, TLS and unwind segments, as the output keeps them.
fn output_segments(img: &Image, extra: Option<ProgramHeader>) -> Result<Vec<ProgramHeader>> {
    let relro = img.segment(pt::GNU_RELRO).copied();
    let mut out = Vec::new();
    for s in &img.segments {
        match s.p_type {
            pt::LOAD => {
                let mut s = *s;
                if relro.is_some_and(|r| r.vaddr == s.vaddr && r.memsz == s.memsz) {
                    s.p_type = pt::SCE_RELRO;
                    s.flags = pf::R;
                }
                out.push(s);
            }
            pt::TLS | pt::GNU_EH_FRAME => out.push(*s),
            _ => {}
        }
    }
    out.extend(extra);
    Ok(out)
}

/// Where the parameter block ended up.
struct ParamPlacement {
    p_type: u32,
    file_offset: u64,
    vaddr: u64,
    size: u64,
    /// A new loaded segment, when the block had to be appended.
    segment: Option<ProgramHeader>,
}

fn place_param(img: &Image, opts: &WriteOptions, out: &mut Vec<u8>) -> Result<ParamPlacement> {
    let (name, p_type, size, magic, count) = match opts.kind {
        OutputKind::Executable => (
            ".sce_process_param",
            pt::SCE_PROCPARAM,
            PROCESS_PARAM_SIZE,
            PROCESS_PARAM_MAGIC,
            3u32,
        ),
        OutputKind::Module => (
            ".sce_module_param",
            pt::SCE_MODULE_PARAM,
            MODULE_PARAM_SIZE,
            MODULE_PARAM_MAGIC,
            1u32,
        ),
    };
    let mut header = Vec::with_capacity(20);
    header.extend_from_slice(&size.to_le_bytes());
    header.extend_from_slice(&magic.to_le_bytes());
    header.extend_from_slice(&count.to_le_bytes());
    header.extend_from_slice(&opts.sdk_version.to_le_bytes());

    if let Some(sec) = img.sections.iter().find(|s| s.name == name) {
        if sec.size < size {
            return Err(Error::malformed(
                sec.offset,
                "parameter section",
                format!("{name} is {:#x} bytes; it must hold {size:#x}", sec.size),
            ));
        }
        if img.vaddr_to_offset(sec.addr, size) != Some(sec.offset) {
            return Err(Error::malformed(
                sec.offset,
                "parameter section",
                format!("{name} is not file-backed in a loaded segment"),
            ));
        }
        let o = sec.offset as usize;
        out[o..o + header.len()].copy_from_slice(&header);
        return Ok(ParamPlacement {
            p_type,
            file_offset: sec.offset,
            vaddr: sec.addr,
            size,
            segment: None,
        });
    }
    // No reserved section: append a read-only page after the highest loaded address.
    let top = img
        .segments
        .iter()
        .filter(|s| s.is_loaded())
        .map(|s| s.vaddr + s.memsz)
        .max()
        .unwrap_or(0);
    let vaddr = top.next_multiple_of(PAGE);
    align_file(out, PAGE as usize);
    let file_offset = out.len() as u64;
    out.extend_from_slice(&header);
    out.resize(file_offset as usize + size as usize, 0);
    Ok(ParamPlacement {
        p_type,
        file_offset,
        vaddr,
        size,
        segment: Some(ProgramHeader {
            p_type: pt::LOAD,
            flags: pf::R,
            offset: file_offset,
            vaddr,
            paddr: vaddr,
            filesz: size,
            memsz: size,
            align: PAGE,
        }),
    })
}

/// The output symbol table and the module/library ids it refers to.
struct SymbolPlan {
    /// Output symbols (index 0 is the null symbol), with their final names.
    symbols: Vec<(Symbol, String)>,
    /// Input symbol index → output symbol index.
    remap: BTreeMap<u32, u32>,
    /// Needed modules in id order (ids start at 1).
    modules: Vec<String>,
    /// Import libraries in id order (ids start at 1), with their module id.
    libraries: Vec<(String, u16)>,
}

impl SymbolPlan {
    fn new(img: &Image, opts: &WriteOptions) -> Result<Self> {
        let mut plan = SymbolPlan {
            symbols: vec![(null_symbol(), String::new())],
            remap: BTreeMap::new(),
            modules: Vec::new(),
            libraries: Vec::new(),
        };
        let referenced: std::collections::BTreeSet<u32> = img
            .relocations
            .iter()
            .chain(&img.plt_relocations)
            .map(|r| r.symbol)
            .filter(|&s| s != 0)
            .collect();
        for (i, sym) in img.symbols.iter().enumerate().skip(1) {
            let exported = !sym.is_undefined() && sym.bind != 0 && is_visible(sym);
            let needed = referenced.contains(&(i as u32));
            let import = sym.is_undefined() && !sym.name.is_empty();
            if !(import || exported || needed) {
                continue;
            }
            let name = if sym.is_undefined() {
                match opts.imports.get(&sym.name) {
                    Some(b) => {
                        let (lib, module) = plan.ids_for(b);
                        SymbolNid::format(&nid_of(&sym.name), lib as u32, module as u32)
                    }
                    // An unresolved weak reference stays a plain weak symbol, as the
                    // console toolchains leave `module_start` and friends.
                    None if sym.bind == STB_WEAK => sym.name.clone(),
                    None => {
                        return Err(Error::Unsupported(format!(
                            "undefined symbol `{}` has no console placement in the import table",
                            sym.name
                        )))
                    }
                }
            } else if sym.name.is_empty() {
                String::new()
            } else {
                // Own exports use library id 0 and module id 0.
                SymbolNid::format(&nid_of(&sym.name), 0, 0)
            };
            plan.remap.insert(i as u32, plan.symbols.len() as u32);
            plan.symbols.push((sym.clone(), name));
        }
        Ok(plan)
    }

    fn ids_for(&mut self, b: &ImportBinding) -> (u16, u16) {
        let module = match self.modules.iter().position(|m| *m == b.module) {
            Some(p) => p as u16 + 1,
            None => {
                self.modules.push(b.module.clone());
                self.modules.len() as u16
            }
        };
        let lib = match self.libraries.iter().position(|(l, _)| *l == b.library) {
            Some(p) => p as u16 + 1,
            None => {
                self.libraries.push((b.library.clone(), module));
                self.libraries.len() as u16
            }
        };
        (lib, module)
    }

    fn remap(&self, r: &Relocation) -> Result<u64> {
        let sym = if r.symbol == 0 {
            0
        } else {
            *self.remap.get(&r.symbol).ok_or_else(|| {
                Error::Unsupported(format!(
                    "relocation at {:#x} names a dropped symbol",
                    r.offset
                ))
            })?
        };
        Ok((sym as u64) << 32 | r.kind as u64)
    }
}

fn is_visible(sym: &Symbol) -> bool {
    // STV_DEFAULT (0) and STV_PROTECTED (3) are exported; hidden/internal are not.
    matches!(sym.other & 3, 0 | 3)
}

fn null_symbol() -> Symbol {
    Symbol {
        name: String::new(),
        value: 0,
        size: 0,
        bind: 0,
        kind: crate::image::SymbolKind::NoType,
        other: 0,
        shndx: 0,
    }
}

/// The dynlib-data segment and where its dynamic table sits inside it.
struct DynlibData {
    bytes: Vec<u8>,
    dynamic_offset: u64,
    dynamic_size: u64,
}

/// The SysV ELF hash of a symbol name (kept here for the writer's callers).
pub use crate::strtab::elf_hash;

fn build_dynlib(
    img: &Image,
    opts: &WriteOptions,
    plan: &SymbolPlan,
    input: &[u8],
) -> Result<DynlibData> {
    let mut strtab = StringTable::new();
    let needed: Vec<u32> = plan
        .modules
        .iter()
        .map(|m| strtab.add(&format!("{m}.prx")))
        .collect();
    let module_names: Vec<u32> = plan.modules.iter().map(|m| strtab.add(m)).collect();
    let lib_names: Vec<u32> = plan.libraries.iter().map(|(l, _)| strtab.add(l)).collect();
    let own_name = strtab.add(&opts.module_name);
    let file_name = strtab.add(&opts.file_name);
    let sym_names: Vec<u32> = plan.symbols.iter().map(|(_, n)| strtab.add(n)).collect();

    let mut symtab = Vec::new();
    for ((sym, _), &name) in plan.symbols.iter().zip(&sym_names) {
        symtab.extend_from_slice(&name.to_le_bytes());
        symtab.push(sym.bind << 4 | sym.kind.to_bits());
        symtab.push(sym.other);
        symtab.extend_from_slice(&sym.shndx.to_le_bytes());
        symtab.extend_from_slice(&sym.value.to_le_bytes());
        symtab.extend_from_slice(&sym.size.to_le_bytes());
    }
    let rela_bytes = |relocs: &[Relocation]| -> Result<Vec<u8>> {
        let mut v = Vec::with_capacity(relocs.len() * 24);
        for r in relocs {
            v.extend_from_slice(&r.offset.to_le_bytes());
            v.extend_from_slice(&plan.remap(r)?.to_le_bytes());
            v.extend_from_slice(&r.addend.to_le_bytes());
        }
        Ok(v)
    };
    let rela = rela_bytes(&img.relocations)?;
    let jmprel = rela_bytes(&img.plt_relocations)?;

    // SysV hash table over the output symbols.
    let names: Vec<&[u8]> = plan.symbols.iter().map(|(_, n)| n.as_bytes()).collect();
    let hash = strtab::hash_table(&names);

    // Layout: fingerprint, strings, then 8-aligned tables, then the dynamic table.
    let mut data = Vec::new();
    let digest = Sha1::digest(input);
    data.extend_from_slice(&digest[..20]);
    data.extend_from_slice(&[0; 4]);
    let str_off = data.len() as u64;
    data.extend_from_slice(strtab.bytes());
    let mut place = |bytes: &[u8]| {
        data.resize(data.len().next_multiple_of(8), 0);
        let o = data.len() as u64;
        data.extend_from_slice(bytes);
        o
    };
    let sym_off = place(&symtab);
    let jmprel_off = place(&jmprel);
    let rela_off = place(&rela);
    let hash_off = place(&hash);

    let mut d: Vec<(u64, u64)> = vec![
        (dt::SCE_HASH, hash_off),
        (dt::SCE_HASHSZ, hash.len() as u64),
        (dt::SCE_STRTAB, str_off),
        (dt::SCE_STRSZ, strtab.bytes().len() as u64),
        (dt::SCE_SYMTAB, sym_off),
        (dt::SCE_SYMTABSZ, symtab.len() as u64),
        (dt::SCE_SYMENT, elf::SYM_SIZE),
        (dt::SCE_RELA, rela_off),
        (dt::SCE_RELASZ, rela.len() as u64),
        (dt::SCE_RELAENT, elf::RELA_SIZE),
        (dt::SCE_PLTGOT, img.pltgot.unwrap_or(0)),
        (dt::SCE_JMPREL, jmprel_off),
        (dt::SCE_PLTRELSZ, jmprel.len() as u64),
        (dt::SCE_PLTREL, dt::RELA),
    ];
    for tag in [
        dt::INIT,
        dt::FINI,
        dt::INIT_ARRAY,
        dt::INIT_ARRAYSZ,
        dt::FINI_ARRAY,
        dt::FINI_ARRAYSZ,
        dt::PREINIT_ARRAY,
        dt::PREINIT_ARRAYSZ,
        dt::FLAGS,
        dt::TEXTREL,
    ] {
        if let Some(v) = img.dyn_value(tag) {
            d.push((tag, v));
        }
    }
    for &n in &needed {
        d.push((dt::NEEDED, n as u64));
    }
    for (i, &n) in module_names.iter().enumerate() {
        let v = ModuleValue {
            name_offset: n,
            major: 1,
            minor: 1,
            id: i as u16 + 1,
        };
        d.push((dt::SCE_NEEDED_MODULE, v.pack()));
    }
    for (i, &n) in lib_names.iter().enumerate() {
        let id = i as u16 + 1;
        let v = LibraryValue {
            name_offset: n,
            version: 1,
            id,
        };
        d.push((dt::SCE_IMPORT_LIB, v.pack()));
        d.push((dt::SCE_IMPORT_LIB_ATTR, (id as u64) << 48 | IMPORT_LIB_ATTR));
    }
    if opts.kind == OutputKind::Module {
        let v = LibraryValue {
            name_offset: own_name,
            version: 1,
            id: 0,
        };
        d.push((dt::SCE_EXPORT_LIB, v.pack()));
        d.push((dt::SCE_EXPORT_LIB_ATTR, EXPORT_LIB_ATTR));
    }
    let own = ModuleValue {
        name_offset: own_name,
        major: 1,
        minor: 1,
        id: 0,
    };
    d.push((dt::SCE_FINGERPRINT, 0));
    d.push((dt::SCE_FILENAME, file_name as u64));
    d.push((dt::SCE_MODULE_INFO, own.pack()));
    d.push((dt::SCE_MODULE_ATTR, 0));
    d.push((dt::NULL, 0));
    let dyn_bytes: Vec<u8> = d
        .iter()
        .flat_map(|(t, v)| t.to_le_bytes().into_iter().chain(v.to_le_bytes()))
        .collect();
    let dynamic_offset = place(&dyn_bytes);
    Ok(DynlibData {
        bytes: data,
        dynamic_offset,
        dynamic_size: dyn_bytes.len() as u64,
    })
}
