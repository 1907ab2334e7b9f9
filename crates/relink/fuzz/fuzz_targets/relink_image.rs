//! Fuzzes the relinker's analysis and emission over corrupted titles: any input must
//! relink or give an error, never panic. Seed the corpus with real titles
//! (`scripts/fuzz-relink.sh` copies them from ../shared/data/titles).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relink::emit::{emit, Binding, EmitPlan, Kind};
use std::collections::BTreeMap;

fuzz_target!(|data: &[u8]| {
    let Ok(img) = sce::Image::parse(data) else { return };
    let _ = relink::analyze::scan_syscalls(&img);
    // Alternate bindings so both bound and stubbed imports are exercised.
    let bindings: BTreeMap<usize, Binding> = img
        .imports
        .iter()
        .enumerate()
        .map(|(n, i)| (i.symbol, if n % 2 == 0 { Binding::Runtime } else { Binding::Missing }))
        .collect();
    let plan = EmitPlan {
        img: &img,
        kind: if img.is_module() { Kind::Module } else { Kind::Executable },
        needed: vec!["libnative5_runtime.so".into()],
        runpath: "$ORIGIN/libs".into(),
        soname: None,
        bindings,
        names: BTreeMap::new(),
    };
    if let Ok(out) = emit(&plan) {
        // The output must itself be a well-formed ELF.
        sce::Image::parse(&out.to_bytes(&img)).expect("emitted ELF parses");
    }
});
