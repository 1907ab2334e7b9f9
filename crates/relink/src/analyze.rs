//! Analysis of an SCE image before emission: where code starts, and the syscall check.

use crate::syscalls::{self, RawSyscall};
use sce::dynamic::dt;
use sce::image::{r_x86_64, Image, SymbolKind};
use std::collections::BTreeSet;

/// Known code starts: the entry point (executables), exported functions, DT_INIT/FINI,
/// the init/fini array entries, and every FDE in `.eh_frame_hdr`.
pub fn code_starts(img: &Image) -> BTreeSet<u64> {
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
    for (array, size) in [
        (dt::INIT_ARRAY, dt::INIT_ARRAYSZ),
        (dt::FINI_ARRAY, dt::FINI_ARRAYSZ),
        (dt::PREINIT_ARRAY, dt::PREINIT_ARRAYSZ),
    ] {
        let (Some(at), Some(len)) = (img.dyn_value(array), img.dyn_value(size)) else {
            continue;
        };
        for slot in (at..at.saturating_add(len)).step_by(8) {
            // Position-independent arrays hold their targets in RELATIVE addends.
            let target = img
                .relocations
                .iter()
                .find(|r| r.offset == slot && r.kind == r_x86_64::RELATIVE)
                .map(|r| r.addend as u64)
                .or_else(|| {
                    let o = img.vaddr_to_offset(slot, 8)? as usize;
                    Some(u64::from_le_bytes(img.elf.get(o..o + 8)?.try_into().ok()?))
                });
            if let Some(t) = target.filter(|&t| t != 0 && t != u64::MAX) {
                starts.insert(t);
            }
        }
    }
    starts.extend(syscalls::eh_frame_starts(img));
    starts
}

/// Runs the raw-syscall scan; returns the finding and the number of instructions decoded.
pub fn scan_syscalls(img: &Image) -> (Option<RawSyscall>, usize) {
    syscalls::scan(img, &code_starts(img))
}
