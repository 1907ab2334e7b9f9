//! Analysis of an SCE image before emission: where code starts, and the syscall check.

use crate::syscalls::{self, RawSyscall};
use sce::dynamic::dt;
use sce::image::{r_x86_64, Image, SymbolKind};
use std::collections::BTreeSet;

/// Known code starts: the roots ([`root_starts`]) and every FDE in `.eh_frame_hdr`.
pub fn code_starts(img: &Image) -> BTreeSet<u64> {
    let mut starts = root_starts(img);
    starts.extend(syscalls::eh_frame_starts(img));
    starts
}

/// Where execution can begin from outside: the entry point (executables), exported
/// functions, DT_INIT/FINI and the init/fini array entries.
pub fn root_starts(img: &Image) -> BTreeSet<u64> {
    let mut starts = BTreeSet::new();
    if !img.is_module() && img.header.entry != 0 {
        starts.insert(img.header.entry);
    }
    for e in &img.exports {
        if e.kind == SymbolKind::Func && e.value != 0 {
            starts.insert(e.value);
        }
    }
    for tag in [dt::INIT, dt::FINI] {
        if let Some(v) = img.dyn_value(tag) {
            starts.insert(v);
        }
    }
    // The slots of the init/fini arrays, then one pass over the relocations for the
    // RELATIVE addends that fill them (titles have up to millions of relocations and
    // a few dozen slots).
    let mut slots: std::collections::BTreeMap<u64, Option<u64>> = std::collections::BTreeMap::new();
    for (array, size) in [
        (dt::INIT_ARRAY, dt::INIT_ARRAYSZ),
        (dt::FINI_ARRAY, dt::FINI_ARRAYSZ),
        (dt::PREINIT_ARRAY, dt::PREINIT_ARRAYSZ),
    ] {
        let (Some(at), Some(len)) = (img.dyn_value(array), img.dyn_value(size)) else {
            continue;
        };
        // An array larger than the file is malformed; its slots cannot all exist.
        if len > img.elf.len() as u64 {
            continue;
        }
        for slot in (at..at.saturating_add(len)).step_by(8) {
            slots.insert(slot, None);
        }
    }
    if !slots.is_empty() {
        for r in img
            .relocations
            .iter()
            .filter(|r| r.kind == r_x86_64::RELATIVE)
        {
            if let Some(v) = slots.get_mut(&r.offset) {
                *v = Some(r.addend as u64);
            }
        }
    }
    for (&slot, &relocated) in &slots {
        let target = relocated.or_else(|| {
            let o = img.vaddr_to_offset(slot, 8)? as usize;
            Some(u64::from_le_bytes(img.elf.get(o..o + 8)?.try_into().ok()?))
        });
        if let Some(t) = target.filter(|&t| t != 0 && t != u64::MAX) {
            starts.insert(t);
        }
    }
    starts
}

/// Starts for the unused-import filter's reachability: like [`code_starts`] but without
/// the `.eh_frame_hdr` FDEs (every function has one, reachable or not), and with every
/// code address that a RELATIVE relocation stores in data (function pointers, vtables).
/// Code whose address is taken in code is added during the scan.
pub fn reachability_starts(img: &Image) -> BTreeSet<u64> {
    let mut starts = root_starts(img);
    let exec: Vec<(u64, u64)> = img
        .segments
        .iter()
        .filter(|s| s.is_loaded() && s.flags & sce::elf::pf::X != 0)
        .map(|s| (s.vaddr, s.vaddr.saturating_add(s.filesz)))
        .collect();
    for r in img
        .relocations
        .iter()
        .filter(|r| r.kind == r_x86_64::RELATIVE)
    {
        let t = r.addend as u64;
        if exec.iter().any(|&(a, b)| t >= a && t < b) {
            starts.insert(t);
        }
    }
    starts
}

/// Runs the raw-syscall scan; returns the finding and the number of instructions decoded.
/// (See [`syscalls::scan_with`] for the variant that also collects references.)
pub fn scan_syscalls(img: &Image) -> (Option<RawSyscall>, usize) {
    syscalls::scan(img, &code_starts(img))
}

/// The unused-import filter levels of `--unused-filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnusedFilter {
    /// Keep every import.
    #[default]
    Keep,
    /// Drop imports reached only through GOT slots (GLOB_DAT) that no reachable code reads.
    NonPlt,
    /// Also drop PLT imports (JUMP_SLOT) whose slot no reachable code (PLT stubs included)
    /// reads: the PLT shrinks to what is called.
    Strict,
}

/// Symbol indices of the imports the filter drops, given the RIP-relative references of
/// reachable code. An import with any other kind of relocation (a data pointer, TLS) is
/// always kept: data is not code, and its readers cannot be traced.
pub fn unused_imports(
    img: &Image,
    filter: UnusedFilter,
    rip_refs: &BTreeSet<u64>,
) -> BTreeSet<usize> {
    let mut keep = BTreeSet::new();
    let mut candidates = BTreeSet::new();
    for r in img.relocations.iter().chain(&img.plt_relocations) {
        if r.symbol == 0 {
            continue;
        }
        let droppable = match r.kind {
            r_x86_64::GLOB_DAT => filter != UnusedFilter::Keep,
            r_x86_64::JUMP_SLOT => filter == UnusedFilter::Strict,
            _ => false,
        };
        if droppable && !rip_refs.contains(&r.offset) {
            candidates.insert(r.symbol as usize);
        } else {
            keep.insert(r.symbol as usize);
        }
    }
    let imports: BTreeSet<usize> = img.imports.iter().map(|i| i.symbol).collect();
    // An import nothing relocates is untouched by definition.
    if filter != UnusedFilter::Keep {
        candidates.extend(imports.iter().filter(|s| !keep.contains(s)));
    }
    candidates
        .into_iter()
        .filter(|s| !keep.contains(s) && imports.contains(s))
        .collect()
}
