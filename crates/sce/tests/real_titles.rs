//! Reads the real OpenOrbis homebrew binaries from `../shared/data/titles/openorbis`.

use sce::{Container, Image};

fn load(rel: &str) -> Option<Image> {
    let path = testkit::shared_file("real_titles", &format!("titles/openorbis/{rel}"))?;
    let data = std::fs::read(&path).unwrap();
    Some(Image::parse(&data).unwrap_or_else(|e| panic!("{rel}: {e}")))
}

/// (nid, library, module) of every import, sorted by NID.
fn imports(img: &Image) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = img
        .imports
        .iter()
        .map(|i| {
            (
                i.nid.clone(),
                i.library.clone().unwrap(),
                i.module.clone().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn expect(names: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = names
        .iter()
        .map(|(n, l, m)| (sce::nid_of(n), l.to_string(), m.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn pthread_has_its_eight_imports() {
    let Some(img) = load("pthread/eboot.bin") else {
        return;
    };
    assert!(matches!(img.container, Container::FakeSelf(_)));
    assert_eq!(img.header.e_type, sce::elf::ET_SCE_DYNEXEC);
    assert!(img.is_sce && !img.is_module());
    let k = ("libkernel", "libkernel");
    let c = ("libc", "libc");
    assert_eq!(
        imports(&img),
        expect(&[
            ("printf", c.0, c.1),
            ("sceKernelUsleep", k.0, k.1),
            ("scePthreadCancel", k.0, k.1),
            ("scePthreadCreate", k.0, k.1),
            ("exit", c.0, c.1),
            ("_init_env", c.0, c.1),
            ("atexit", c.0, c.1),
            ("Need_sceLibc", c.0, c.1),
        ])
    );
    let ids: Vec<_> = img
        .needed_modules
        .iter()
        .map(|m| (m.id, m.name.as_str()))
        .collect();
    assert_eq!(ids, [(1, "libkernel"), (2, "libc")]);
    assert_eq!(img.needed_files, ["libkernel.prx", "libc.prx"]);
    assert_eq!(img.plt_relocations.len(), 7);
    assert_eq!(img.relocations.len(), 12);
    assert_eq!(img.pltgot, Some(0x4318));
    let p = img.param.unwrap();
    assert_eq!(
        (p.size, &p.magic.to_le_bytes(), p.entry_count),
        (0x50, b"ORBI", 3)
    );
}

#[test]
fn using_library_modules_export_their_function() {
    for rel in [
        "using_library/libExample.prx",
        "using_library/sce_module/libExample.prx",
    ] {
        let Some(img) = load(rel) else { return };
        assert!(img.is_module(), "{rel}");
        let own = img.own_module.as_ref().unwrap().name.clone();
        assert_eq!(img.export_libraries[0].name, own, "{rel}");
        assert!(!img.exports.is_empty(), "{rel}");
        assert!(img
            .exports
            .iter()
            .all(|e| e.library.as_deref() == Some(own.as_str())));
        assert!(!img.imports.is_empty(), "{rel}");
        let p = img.param.unwrap();
        assert_eq!(p.magic, 0x3c13f4bf, "{rel}");
    }
}

#[test]
fn using_library_eboot_and_graphics_parse() {
    for rel in ["using_library/eboot.bin", "graphics/eboot.bin"] {
        let Some(img) = load(rel) else { return };
        assert!(!img.imports.is_empty(), "{rel}");
        assert!(img
            .imports
            .iter()
            .all(|i| i.library.is_some() && i.module.is_some()));
    }
}
