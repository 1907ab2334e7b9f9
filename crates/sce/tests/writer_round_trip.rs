//! The writer's output reads back with everything it wrote.
//!
//! Inputs are small PIE/shared objects linked by ld.lld-19 from `tests/data/*.c` for the
//! PS5 target (rebuild them with the commands in `tests/data/README.md`).

use sce::elf::pt;
use sce::image::r_x86_64;
use sce::writer::{write, ImportBinding, OutputKind, WriteOptions};
use sce::{nid_of, Image};
use std::collections::BTreeMap;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn bindings() -> BTreeMap<String, ImportBinding> {
    let b = |m: &str, l: &str| ImportBinding {
        module: m.into(),
        library: l.into(),
    };
    let mut t = BTreeMap::new();
    for n in ["printf", "malloc", "puts"] {
        t.insert(n.to_string(), b("libc", "libc"));
    }
    for n in [
        "scePthreadCreate",
        "__stack_chk_guard",
        "__stack_chk_fail",
        "__tls_get_addr",
    ] {
        t.insert(n.to_string(), b("libkernel", "libkernel"));
    }
    t.insert("some_data_import".into(), b("libkernel", "libScePosix"));
    t
}

fn options(kind: OutputKind) -> WriteOptions {
    WriteOptions {
        kind,
        sdk_version: 0x0450_8101,
        module_name: "hello".into(),
        file_name: "hello.elf".into(),
        imports: bindings(),
    }
}

#[test]
fn executable_round_trips() {
    let input = data("hello.pie.elf");
    let plain = Image::parse(&input).unwrap();
    let out = write(&input, &options(OutputKind::Executable)).unwrap();
    let img = Image::parse(&out).unwrap();
    assert!(img.is_sce);
    assert_eq!(img.header.e_type, sce::elf::ET_SCE_DYNEXEC);
    assert_eq!(img.header.entry, plain.header.entry);
    assert_eq!(img.header.os_abi, 9);

    let mut got: Vec<_> = img
        .imports
        .iter()
        .map(|i| {
            (
                i.nid.clone(),
                i.module.clone().unwrap(),
                i.library.clone().unwrap(),
            )
        })
        .collect();
    got.sort();
    let mut want: Vec<_> = plain
        .imports
        .iter()
        .map(|i| {
            let b = &bindings()[i.plain_name.as_ref().unwrap()];
            (
                nid_of(i.plain_name.as_ref().unwrap()),
                b.module.clone(),
                b.library.clone(),
            )
        })
        .collect();
    want.sort();
    assert_eq!(got, want);
    assert!(got.iter().any(|(n, m, l)| *n == nid_of("some_data_import")
        && m == "libkernel"
        && l == "libScePosix"));

    // Module ids start at 1; library ids too; a library of another name shares its module id.
    let posix = img
        .import_libraries
        .iter()
        .find(|l| l.name == "libScePosix")
        .unwrap();
    assert_eq!(posix.attributes, Some(9));
    assert!(img.needed_modules.iter().all(|m| m.id >= 1));
    assert_eq!(img.needed_files.len(), img.needed_modules.len());

    // Relocations are kept with their kinds, offsets and addends; symbols follow by name.
    for (a, b) in [
        (&plain.relocations, &img.relocations),
        (&plain.plt_relocations, &img.plt_relocations),
    ] {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b.iter()) {
            assert_eq!((x.offset, x.kind, x.addend), (y.offset, y.kind, y.addend));
            let xn = &plain.symbols[x.symbol as usize].name;
            let yn = &img.symbols[y.symbol as usize].name;
            assert!(yn.starts_with(&nid_of(xn)), "{xn} -> {yn}");
        }
    }
    assert!(img
        .plt_relocations
        .iter()
        .all(|r| r.kind == r_x86_64::JUMP_SLOT));
    assert_eq!(img.pltgot, plain.pltgot);

    // Loaded bytes are unchanged.
    for s in plain.segments.iter().filter(|s| s.p_type == pt::LOAD) {
        let o = img
            .segments
            .iter()
            .find(|t| t.vaddr == s.vaddr && t.is_loaded())
            .unwrap();
        assert_eq!((o.offset, o.filesz, o.memsz), (s.offset, s.filesz, s.memsz));
    }
    assert!(
        img.segment(pt::SCE_RELRO).is_some(),
        "RELRO becomes PT_SCE_RELRO"
    );
    assert!(img.segment(pt::TLS).is_some());
    let p = img.param.unwrap();
    assert_eq!(
        (p.size, p.magic, p.entry_count, p.sdk_version),
        (0x50, u32::from_le_bytes(*b"ORBI"), 3, 0x0450_8101)
    );
    assert_eq!(img.own_module.as_ref().unwrap().name, "hello");
    assert_eq!(img.file_name.as_deref(), Some("hello.elf"));
}

#[test]
fn module_exports_and_tls_round_trip() {
    let input = data("module.so.elf");
    let mut opts = options(OutputKind::Module);
    opts.module_name = "libExample".into();
    let out = write(&input, &opts).unwrap();
    let img = Image::parse(&out).unwrap();
    assert!(img.is_module());
    assert_eq!(img.header.entry, 0);
    let mut exports: Vec<_> = img
        .exports
        .iter()
        .map(|e| (e.nid.clone(), e.library.clone().unwrap()))
        .collect();
    exports.sort();
    let mut want: Vec<_> = ["example_add", "example_tls", "module_start"]
        .iter()
        .map(|n| (nid_of(n), "libExample".to_string()))
        .collect();
    want.sort();
    assert_eq!(exports, want);
    let tls = img
        .exports
        .iter()
        .find(|e| e.nid == nid_of("example_tls"))
        .unwrap();
    assert_eq!(tls.kind, sce::SymbolKind::Tls);
    let kinds: Vec<u32> = img.relocations.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [r_x86_64::DTPMOD64, r_x86_64::DTPOFF64]);
    assert_eq!(img.param.unwrap().magic, sce::writer::MODULE_PARAM_MAGIC);
}

#[test]
fn missing_placement_is_a_clear_error() {
    let input = data("hello.pie.elf");
    let mut opts = options(OutputKind::Executable);
    opts.imports.remove("malloc");
    let e = write(&input, &opts).unwrap_err().to_string();
    assert!(e.contains("`malloc`"), "{e}");
}

#[test]
fn sce_input_is_refused() {
    let input = data("hello.pie.elf");
    let out = write(&input, &options(OutputKind::Executable)).unwrap();
    assert!(write(&out, &options(OutputKind::Executable)).is_err());
}

#[test]
fn appends_a_parameter_segment_when_none_is_reserved() {
    // The module fixture reserves `.sce_module_param`; written as an executable it has
    // no `.sce_process_param`, so the writer appends a loaded segment for it.
    let input = data("module.so.elf");
    let out = write(&input, &options(OutputKind::Executable)).unwrap();
    let img = Image::parse(&out).unwrap();
    let p = img.param.unwrap();
    assert_eq!(p.magic, u32::from_le_bytes(*b"ORBI"));
    let seg = img
        .segments
        .iter()
        .find(|s| s.is_loaded() && s.vaddr == p.vaddr)
        .unwrap();
    assert!(seg.vaddr % 0x4000 == 0);
}
