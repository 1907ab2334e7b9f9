//! Emits a host ELF (Linux, x86-64) from an SCE image.
//!
//! The image's loaded segments keep their file offsets and addresses. An appended
//! block adds, in a read-execute segment, the entry stub and the stubs for imports
//! nobody exports; and in a read-write segment, the program headers, `PT_INTERP`, a
//! SysV dynamic section (dynstr, dynsym named by NID, DT_HASH, RELA and JMPREL over the
//! title's own GOT) and the GOT slots of the stubs. `PT_SCE_RELRO` becomes a writable
//! `PT_LOAD` covered by `PT_GNU_RELRO`, so the host loader can relocate it and then
//! make it read-only.

use crate::RelinkError;
use sce::dynamic::dt;
use sce::elf::{pf, pt, ProgramHeader, PHDR_SIZE};
use sce::image::{r_x86_64, Image, Symbol, STB_GLOBAL, STB_WEAK};
use sce::strtab::StringTable;
use sce::SymbolNid;
use std::collections::BTreeMap;

/// Where an import binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// The runtime exports it.
    Runtime,
    /// A bundled module exports it; the module's file name.
    Module(String),
    /// Nobody does: bound to a stub that reports it and aborts.
    Missing,
    /// Dropped by the unused-import filter: no reachable code reads its slots, which
    /// are pointed at the same reporting stub in case the analysis missed a path.
    Dropped,
}

/// Executable or module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `app.elf`.
    Executable,
    /// A converted `.prx`.
    Module,
}

/// What to emit besides the image itself.
pub struct EmitPlan<'a> {
    /// The image.
    pub img: &'a Image,
    /// Executable or module.
    pub kind: Kind,
    /// DT_NEEDED names, in load order (the runtime first).
    pub needed: Vec<String>,
    /// DT_RUNPATH.
    pub runpath: String,
    /// DT_SONAME, for modules.
    pub soname: Option<String>,
    /// Binding of each import, by symbol index.
    pub bindings: BTreeMap<usize, Binding>,
    /// Display names for missing-import messages, by NID.
    pub names: BTreeMap<String, String>,
}

/// The emitted file and what went into it: the image's bytes with a new ELF header,
/// then zero padding to `block_offset`, then the appended block.
pub struct Emitted {
    /// The rewritten ELF header.
    pub header: [u8; 64],
    /// File offset of the appended block.
    pub block_offset: u64,
    /// The appended block: code, padding, data.
    pub block: Vec<u8>,
    /// Imports bound to abort stubs (NIDs).
    pub stubbed: Vec<String>,
}

impl Emitted {
    /// Writes the whole file without assembling it in memory first.
    pub fn write_to(&self, img: &Image, w: &mut impl std::io::Write) -> std::io::Result<()> {
        w.write_all(&self.header)?;
        w.write_all(&img.elf[64..])?;
        let pad = self.block_offset as usize - img.elf.len();
        w.write_all(&vec![0u8; pad])?;
        w.write_all(&self.block)
    }

    /// The whole file in memory.
    pub fn to_bytes(&self, img: &Image) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.block_offset as usize + self.block.len());
        self.write_to(img, &mut v)
            .expect("writing to a Vec cannot fail");
        v
    }
}

const PAGE: u64 = 0x4000;
const INTERP: &[u8] = b"/lib64/ld-linux-x86-64.so.2\0";
const ENTRY_STUB_LEN: u64 = 27;
const MISSING_STUB_LEN: u64 = 13;
/// Section index given to defined dynamic symbols. There are no section headers; the
/// host loader only checks that a defined symbol is not SHN_UNDEF or SHN_ABS.
const DEFINED_SHNDX: u16 = 1;

struct Dynsym {
    name: u32,
    info: u8,
    other: u8,
    shndx: u16,
    value: u64,
    size: u64,
}

fn host_name(sym: &Symbol) -> String {
    // Dynamic symbols are named by the bare NID; the `#L#M` suffix is cut.
    SymbolNid::parse(&sym.name)
        .map(|s| s.nid)
        .unwrap_or_else(|| sym.name.clone())
}

/// Emits the host ELF.
pub fn emit(plan: &EmitPlan<'_>) -> Result<Emitted, RelinkError> {
    let img = plan.img;
    let exe = plan.kind == Kind::Executable;
    check_segments(img)?;

    // Symbols: the null symbol, the runtime hooks, then every import and export.
    let mut strings = StringTable::new();
    let mut dynsym = vec![Dynsym {
        name: 0,
        info: 0,
        other: 0,
        shndx: 0,
        value: 0,
        size: 0,
    }];
    let hook = |strings: &mut StringTable, dynsym: &mut Vec<Dynsym>, name: &str| {
        dynsym.push(Dynsym {
            name: strings.add(name),
            info: STB_GLOBAL << 4 | 2,
            other: 0,
            shndx: 0,
            value: 0,
            size: 0,
        });
        dynsym.len() as u32 - 1
    };
    let start_sym = exe.then(|| hook(&mut strings, &mut dynsym, "native5_start"));
    let missing_sym = hook(&mut strings, &mut dynsym, "native5_missing_import");

    let mut sym_map: BTreeMap<u32, u32> = BTreeMap::new();
    let mut missing: Vec<usize> = Vec::new();
    for (i, sym) in img.symbols.iter().enumerate().skip(1) {
        if sym.name.is_empty() || !(sym.bind == STB_GLOBAL || sym.bind == STB_WEAK) {
            continue;
        }
        if sym.is_undefined()
            && matches!(
                plan.bindings.get(&i),
                Some(Binding::Missing | Binding::Dropped)
            )
        {
            missing.push(i);
            continue;
        }
        let defined = !sym.is_undefined();
        sym_map.insert(i as u32, dynsym.len() as u32);
        dynsym.push(Dynsym {
            name: strings.add(&host_name(sym)),
            info: sym.bind << 4 | sym.kind.to_bits(),
            other: 0,
            shndx: if defined { DEFINED_SHNDX } else { 0 },
            value: if defined { sym.value } else { 0 },
            size: sym.size,
        });
    }
    let missing_index: BTreeMap<usize, usize> =
        missing.iter().enumerate().map(|(n, &s)| (s, n)).collect();
    let needed: Vec<u32> = plan.needed.iter().map(|n| strings.add(n)).collect();
    let runpath = strings.add(&plan.runpath);
    let soname = plan.soname.as_deref().map(|s| strings.add(s));

    // Messages for the missing-import stubs.
    let messages: Vec<Vec<u8>> = missing
        .iter()
        .map(|&i| {
            let nid = host_name(&img.symbols[i]);
            let name = plan
                .names
                .get(&nid)
                .map(String::as_str)
                .unwrap_or("unknown name");
            format!("import {nid} ({name})\0").into_bytes()
        })
        .collect();

    // Where the block goes.
    let top = img
        .segments
        .iter()
        .filter(|s| s.is_loaded())
        .map(|s| s.vaddr.saturating_add(s.memsz))
        .max()
        .unwrap_or(0);
    let block_va = top.next_multiple_of(PAGE);
    let block_off = (img.elf.len() as u64).next_multiple_of(PAGE);
    let code_len = if exe { ENTRY_STUB_LEN } else { 0 } + MISSING_STUB_LEN * missing.len() as u64;
    let data_rel = code_len.next_multiple_of(PAGE);
    let data_va = block_va + data_rel;
    let data_off = block_off + data_rel;

    // Program headers (their count is fixed before the layout).
    let mut loads: Vec<ProgramHeader> = Vec::new();
    let mut relro: Vec<ProgramHeader> = Vec::new();
    let mut writable_ranges = Vec::new();
    for s in img.segments.iter().filter(|s| s.is_loaded()) {
        let mut l = *s;
        l.p_type = pt::LOAD;
        if s.p_type == pt::SCE_RELRO {
            l.flags = pf::R | pf::W;
            relro.push(ProgramHeader {
                p_type: pt::GNU_RELRO,
                flags: pf::R,
                ..*s
            });
        }
        if l.flags & pf::W != 0 {
            writable_ranges.push((l.vaddr, l.vaddr + l.memsz));
        }
        loads.push(l);
    }
    loads.sort_by_key(|l| l.vaddr);
    let kept: Vec<ProgramHeader> = img
        .segments
        .iter()
        .filter(|s| {
            matches!(
                s.p_type,
                pt::TLS | pt::GNU_EH_FRAME | pt::SCE_PROCPARAM | pt::SCE_MODULE_PARAM
            )
        })
        .filter(|s| s.p_type != pt::TLS || s.memsz > 0)
        .copied()
        .collect();
    let phnum = 1 // PHDR
        + exe as usize // INTERP
        + loads.len()
        + (code_len > 0) as usize
        + 1 // data LOAD
        + 1 // DYNAMIC
        + kept.len()
        + relro.len()
        + 1; // GNU_STACK

    // Relocations.
    let stub_va =
        |n: usize| block_va + if exe { ENTRY_STUB_LEN } else { 0 } + MISSING_STUB_LEN * n as u64;
    let mut rela: Vec<(u64, u64, i64)> = Vec::new();
    let mut jmprel: Vec<(u64, u64, i64)> = Vec::new();
    let mut textrel = false;
    for r in img.relocations.iter().chain(&img.plt_relocations) {
        if !writable_ranges
            .iter()
            .any(|&(a, b)| r.offset >= a && r.offset < b)
        {
            textrel = true;
        }
        let supported = matches!(
            r.kind,
            r_x86_64::NONE
                | r_x86_64::R64
                | r_x86_64::GLOB_DAT
                | r_x86_64::JUMP_SLOT
                | r_x86_64::RELATIVE
                | r_x86_64::DTPMOD64
                | r_x86_64::DTPOFF64
                | r_x86_64::TPOFF64
        );
        if !supported {
            return Err(RelinkError::UnsupportedRelocation {
                offset: r.offset,
                kind: sce::image::relocation_name(r.kind),
            });
        }
        let s = r.symbol as usize;
        if s != 0 {
            if let Some(&n) = missing_index.get(&s) {
                match r.kind {
                    r_x86_64::JUMP_SLOT | r_x86_64::GLOB_DAT => {
                        rela.push((r.offset, r_x86_64::RELATIVE as u64, stub_va(n) as i64));
                        continue;
                    }
                    r_x86_64::R64 => {
                        rela.push((
                            r.offset,
                            r_x86_64::RELATIVE as u64,
                            (stub_va(n) as i64).wrapping_add(r.addend),
                        ));
                        continue;
                    }
                    _ => {
                        return Err(RelinkError::UnsupportedRelocation {
                            offset: r.offset,
                            kind: format!(
                                "{} against {}, which nothing exports",
                                sce::image::relocation_name(r.kind),
                                img.symbols[s].name
                            ),
                        })
                    }
                }
            }
        }
        let new_sym = if s == 0 {
            0
        } else {
            match sym_map.get(&r.symbol) {
                Some(&n) => n,
                None => {
                    // A local or section symbol: keep it as a local, defined entry.
                    let sym = &img.symbols[s];
                    dynsym.push(Dynsym {
                        name: strings.add(&host_name(sym)),
                        info: sym.bind << 4 | sym.kind.to_bits(),
                        other: 0,
                        shndx: if sym.is_undefined() { 0 } else { DEFINED_SHNDX },
                        value: sym.value,
                        size: sym.size,
                    });
                    let n = dynsym.len() as u32 - 1;
                    sym_map.insert(r.symbol, n);
                    n
                }
            }
        };
        let entry = (r.offset, (new_sym as u64) << 32 | r.kind as u64, r.addend);
        if r.plt && r.kind == r_x86_64::JUMP_SLOT {
            jmprel.push(entry);
        } else {
            rela.push(entry);
        }
    }

    // Data area layout.
    let mut off = phnum as u64 * PHDR_SIZE;
    let interp_off = off;
    if exe {
        off += INTERP.len() as u64;
    }
    let dynstr_off = off;
    off += strings.bytes().len() as u64;
    off = off.next_multiple_of(8);
    let dynsym_off = off;
    // The GOT slots' relocations are added below; reserve their entries now.
    let got_relocs = 1 + exe as usize;
    off += dynsym.len() as u64 * 24;
    let nbucket = (dynsym.len() as u32 / 2).max(1);
    let hash_off = off;
    off += 4 * (2 + nbucket as u64 + dynsym.len() as u64);
    off = off.next_multiple_of(8);
    let rela_off = off;
    off += (rela.len() + got_relocs) as u64 * 24;
    let jmprel_off = off;
    off += jmprel.len() as u64 * 24;
    let dynamic_off = off;
    let mut dynamic: Vec<(u64, u64)> = Vec::new();
    for &n in &needed {
        dynamic.push((dt::NEEDED, n as u64));
    }
    if let Some(s) = soname {
        dynamic.push((dt::SONAME, s as u64));
    }
    dynamic.push((dt::RUNPATH, runpath as u64));
    dynamic.push((dt::HASH, data_va + hash_off));
    dynamic.push((dt::STRTAB, data_va + dynstr_off));
    dynamic.push((dt::SYMTAB, data_va + dynsym_off));
    dynamic.push((dt::STRSZ, strings.bytes().len() as u64));
    dynamic.push((dt::SYMENT, 24));
    dynamic.push((dt::RELA, data_va + rela_off));
    dynamic.push((dt::RELASZ, (rela.len() + got_relocs) as u64 * 24));
    dynamic.push((dt::RELAENT, 24));
    if !jmprel.is_empty() {
        dynamic.push((dt::JMPREL, data_va + jmprel_off));
        dynamic.push((dt::PLTRELSZ, jmprel.len() as u64 * 24));
        dynamic.push((dt::PLTREL, dt::RELA));
    }
    if let Some(g) = img.pltgot {
        dynamic.push((dt::PLTGOT, g));
    }
    for tag in [
        dt::INIT,
        dt::FINI,
        dt::INIT_ARRAY,
        dt::INIT_ARRAYSZ,
        dt::FINI_ARRAY,
        dt::FINI_ARRAYSZ,
        dt::PREINIT_ARRAY,
        dt::PREINIT_ARRAYSZ,
    ] {
        if tag >= dt::PREINIT_ARRAY && !exe {
            continue;
        }
        if let Some(v) = img.dyn_value(tag) {
            dynamic.push((tag, v));
        }
    }
    let flags = sce::dynamic::DF_BIND_NOW | if textrel { sce::dynamic::DF_TEXTREL } else { 0 };
    dynamic.push((dt::FLAGS, flags));
    const DF_1_NOW: u64 = 1;
    const DF_1_PIE: u64 = 0x0800_0000;
    dynamic.push((dt::FLAGS_1, DF_1_NOW | if exe { DF_1_PIE } else { 0 }));
    if textrel {
        dynamic.push((dt::TEXTREL, 0));
    }
    if exe {
        dynamic.push((dt::DEBUG, 0));
    }
    dynamic.push((dt::NULL, 0));
    off += dynamic.len() as u64 * 16;
    off = off.next_multiple_of(8);
    let got_off = off;
    off += 8 * got_relocs as u64;
    let mut message_offs = Vec::new();
    for m in &messages {
        message_offs.push(off);
        off += m.len() as u64;
    }
    let data_len = off;
    let got_missing = data_va + got_off;
    let got_start = data_va + got_off + 8;
    rela.push((
        got_missing,
        (missing_sym as u64) << 32 | r_x86_64::GLOB_DAT as u64,
        0,
    ));
    if let Some(s) = start_sym {
        rela.push((got_start, (s as u64) << 32 | r_x86_64::GLOB_DAT as u64, 0));
    }

    // Code: the entry stub, then one stub per missing import.
    let mut code = Vec::new();
    if exe {
        let entry = img.header.entry;
        let lea_next = block_va + 15;
        let call_next = block_va + 25;
        code.extend_from_slice(&[0x31, 0xed]); // xor ebp, ebp
        code.extend_from_slice(&[0x48, 0x89, 0xe7]); // mov rdi, rsp  (the stack-style block)
        code.extend_from_slice(&[0x48, 0x89, 0xd6]); // mov rsi, rdx  (the loader's finalizer)
        code.extend_from_slice(&[0x48, 0x8d, 0x15]); // lea rdx, [rip + entry]
        code.extend_from_slice(&rel32(entry, lea_next)?.to_le_bytes());
        code.extend_from_slice(&[0x48, 0x83, 0xe4, 0xf0]); // and rsp, -16
        code.extend_from_slice(&[0xff, 0x15]); // call [rip + got_start]
        code.extend_from_slice(&rel32(got_start, call_next)?.to_le_bytes());
        code.extend_from_slice(&[0x0f, 0x0b]); // ud2
        debug_assert_eq!(code.len() as u64, ENTRY_STUB_LEN);
    }
    for (n, _) in missing.iter().enumerate() {
        let at = stub_va(n);
        code.extend_from_slice(&[0x48, 0x8d, 0x3d]); // lea rdi, [rip + message]
        code.extend_from_slice(&rel32(data_va + message_offs[n], at + 7)?.to_le_bytes());
        code.extend_from_slice(&[0xff, 0x25]); // jmp [rip + got_missing]
        code.extend_from_slice(&rel32(got_missing, at + 13)?.to_le_bytes());
    }

    // Assemble the data area.
    let mut data = vec![0u8; data_len as usize];
    let mut phdrs = vec![ProgramHeader {
        p_type: pt::PHDR,
        flags: pf::R,
        offset: data_off,
        vaddr: data_va,
        paddr: data_va,
        filesz: phnum as u64 * PHDR_SIZE,
        memsz: phnum as u64 * PHDR_SIZE,
        align: 8,
    }];
    if exe {
        data[interp_off as usize..interp_off as usize + INTERP.len()].copy_from_slice(INTERP);
        phdrs.push(ProgramHeader {
            p_type: pt::INTERP,
            flags: pf::R,
            offset: data_off + interp_off,
            vaddr: data_va + interp_off,
            paddr: data_va + interp_off,
            filesz: INTERP.len() as u64,
            memsz: INTERP.len() as u64,
            align: 1,
        });
    }
    phdrs.extend(loads.iter().copied());
    if code_len > 0 {
        phdrs.push(ProgramHeader {
            p_type: pt::LOAD,
            flags: pf::R | pf::X,
            offset: block_off,
            vaddr: block_va,
            paddr: block_va,
            filesz: code_len,
            memsz: code_len,
            align: PAGE,
        });
    }
    phdrs.push(ProgramHeader {
        p_type: pt::LOAD,
        flags: pf::R | pf::W,
        offset: data_off,
        vaddr: data_va,
        paddr: data_va,
        filesz: data_len,
        memsz: data_len,
        align: PAGE,
    });
    phdrs.push(ProgramHeader {
        p_type: pt::DYNAMIC,
        flags: pf::R | pf::W,
        offset: data_off + dynamic_off,
        vaddr: data_va + dynamic_off,
        paddr: data_va + dynamic_off,
        filesz: dynamic.len() as u64 * 16,
        memsz: dynamic.len() as u64 * 16,
        align: 8,
    });
    phdrs.extend(kept.iter().copied());
    phdrs.extend(relro.iter().copied());
    phdrs.push(ProgramHeader {
        p_type: pt::GNU_STACK,
        flags: pf::R | pf::W,
        offset: 0,
        vaddr: 0,
        paddr: 0,
        filesz: 0,
        memsz: 0,
        align: 16,
    });
    debug_assert_eq!(phdrs.len(), phnum);
    for (i, p) in phdrs.iter().enumerate() {
        let o = i * PHDR_SIZE as usize;
        data[o..o + PHDR_SIZE as usize].copy_from_slice(&p.to_bytes());
    }
    put(&mut data, dynstr_off, strings.bytes());
    let mut o = dynsym_off as usize;
    for s in &dynsym {
        data[o..o + 4].copy_from_slice(&s.name.to_le_bytes());
        data[o + 4] = s.info;
        data[o + 5] = s.other;
        data[o + 6..o + 8].copy_from_slice(&s.shndx.to_le_bytes());
        data[o + 8..o + 16].copy_from_slice(&s.value.to_le_bytes());
        data[o + 16..o + 24].copy_from_slice(&s.size.to_le_bytes());
        o += 24;
    }
    let names: Vec<&[u8]> = dynsym
        .iter()
        .map(|d| {
            let tail = &strings.bytes()[d.name as usize..];
            &tail[..tail.iter().position(|&c| c == 0).unwrap_or(tail.len())]
        })
        .collect();
    let hash = sce::strtab::hash_table(&names);
    debug_assert_eq!(
        hash.len() as u64,
        4 * (2 + nbucket as u64 + dynsym.len() as u64)
    );
    put(&mut data, hash_off, &hash);
    put(&mut data, rela_off, &rela_bytes(&rela));
    put(&mut data, jmprel_off, &rela_bytes(&jmprel));
    let dyn_bytes: Vec<u8> = dynamic
        .iter()
        .flat_map(|(t, v)| t.to_le_bytes().into_iter().chain(v.to_le_bytes()))
        .collect();
    put(&mut data, dynamic_off, &dyn_bytes);
    for (m, &mo) in messages.iter().zip(&message_offs) {
        put(&mut data, mo, m);
    }

    // The block: code, padding to the data page, data.
    let mut block = code;
    block.resize((data_off - block_off) as usize, 0);
    block.extend_from_slice(&data);
    let mut out = [0u8; 64];
    out.copy_from_slice(&img.elf[..64]);
    out[7] = 0; // EI_OSABI: System V, which the host loader requires.
    out[8] = 0;
    out[16..18].copy_from_slice(&3u16.to_le_bytes()); // ET_DYN
    let entry = if exe { block_va } else { 0 };
    out[24..32].copy_from_slice(&entry.to_le_bytes());
    out[32..40].copy_from_slice(&data_off.to_le_bytes());
    out[40..48].copy_from_slice(&0u64.to_le_bytes());
    out[54..56].copy_from_slice(&(PHDR_SIZE as u16).to_le_bytes());
    out[56..58].copy_from_slice(&(phnum as u16).to_le_bytes());
    out[58..60].copy_from_slice(&64u16.to_le_bytes());
    out[60..64].copy_from_slice(&[0; 4]);
    Ok(Emitted {
        header: out,
        block_offset: block_off,
        block,
        stubbed: missing
            .iter()
            .map(|&i| host_name(&img.symbols[i]))
            .collect(),
    })
}

/// The highest address a loaded segment may reach: user space on x86-64 Linux is 47
/// bits, and the image is mapped at a base above zero.
const MAX_IMAGE_END: u64 = 1 << 40;

/// Loaded segments must lie in the file and in a sane address range, so that the
/// appended block's layout arithmetic cannot overflow.
fn check_segments(img: &Image) -> Result<(), RelinkError> {
    for s in img.segments.iter().filter(|s| s.is_loaded()) {
        let end = s.vaddr.checked_add(s.memsz).filter(|&e| e <= MAX_IMAGE_END);
        let file_end = s
            .offset
            .checked_add(s.filesz)
            .filter(|&e| e <= img.elf.len() as u64);
        if end.is_none() || file_end.is_none() || s.filesz > s.memsz {
            return Err(RelinkError::Layout(format!(
                "loaded segment at vaddr {:#x} (file offset {:#x}, filesz {:#x}, memsz {:#x}) \
                 lies outside the file or the address space",
                s.vaddr, s.offset, s.filesz, s.memsz
            )));
        }
    }
    if img.elf.len() < 64 {
        return Err(RelinkError::Layout(
            "the ELF is shorter than its header".into(),
        ));
    }
    Ok(())
}

fn put(data: &mut [u8], off: u64, bytes: &[u8]) {
    data[off as usize..off as usize + bytes.len()].copy_from_slice(bytes);
}

fn rel32(target: u64, next: u64) -> Result<i32, RelinkError> {
    i32::try_from((target as i64).wrapping_sub(next as i64))
        .map_err(|_| RelinkError::Layout(format!("{target:#x} is out of rel32 range of {next:#x}")))
}

fn rela_bytes(list: &[(u64, u64, i64)]) -> Vec<u8> {
    let mut v = Vec::with_capacity(list.len() * 24);
    for (o, i, a) in list {
        v.extend_from_slice(&o.to_le_bytes());
        v.extend_from_slice(&i.to_le_bytes());
        v.extend_from_slice(&a.to_le_bytes());
    }
    v
}
