//! Builds the titles in tests/titles with the real clang-19 and ld.lld-19, and reads the
//! results back with the sce reader. Each test skips (printing why) when the tools are
//! missing, unless NATIVE5_REQUIRE_TOOLS=1.

use std::path::{Path, PathBuf};

use object::read::elf::ElfFile64;
use object::{Endianness, Object, ObjectSection, ObjectSymbol, ObjectSymbolTable, RelocationFlags};
use sdk::{BuildOptions, SdkError, Toolchain};

fn title(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/titles")
        .join(name)
}

fn options(tc: Toolchain, sources: &[&str], out: &Path) -> BuildOptions {
    let mut o = BuildOptions::new(sources.iter().map(|s| title(s)), out);
    o.toolchain = tc;
    o
}

/// Placement of an import in the converted image: (module, library).
fn placement(img: &sce::Image, name: &str) -> Option<(String, String)> {
    let nid = sce::nid_of(name);
    img.imports.iter().find(|i| i.nid == nid).map(|i| {
        (
            i.module.clone().unwrap_or_default(),
            i.library.clone().unwrap_or_default(),
        )
    })
}

#[test]
fn executable_imports_printf_malloc_and_sce_pthread_create_from_their_modules() {
    let Some(tc) = sdk::test_toolchain("executable_imports") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eboot.bin");
    let built = sdk::build(&options(tc, &["threads.c"], &out)).unwrap();
    assert_eq!(built.output, out);

    let bytes = std::fs::read(&out).unwrap();
    let img = sce::Image::parse(&bytes).unwrap();
    assert!(img.is_sce, "the output is an SCE ELF");
    let libc = ("libc".to_string(), "libc".to_string());
    let kernel = ("libkernel".to_string(), "libkernel".to_string());
    assert_eq!(placement(&img, "printf"), Some(libc.clone()));
    assert_eq!(placement(&img, "malloc"), Some(libc));
    assert_eq!(placement(&img, "scePthreadCreate"), Some(kernel.clone()));
    // The stack protector's imports, and errno's.
    assert_eq!(placement(&img, "__stack_chk_guard"), Some(kernel.clone()));
    assert_eq!(placement(&img, "__stack_chk_fail"), Some(kernel.clone()));
    assert_eq!(placement(&img, "__error"), Some(kernel));
    // The crt's own imports.
    assert!(placement(&img, "atexit").is_some());
    assert!(placement(&img, "exit").is_some());
    assert_eq!(built.imports["printf"].module, "libc");
    // No leftover temporary file beside the output.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("eboot.bin")]);
}

#[test]
fn linked_executable_reaches_data_through_the_got_and_runs_ctors_from_dt_init() {
    let Some(tc) = sdk::test_toolchain("linked_executable") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let linked = sdk::link(&options(tc, &["threads.c"], &dir.path().join("t.bin"))).unwrap();
    let file = ElfFile64::<Endianness>::parse(&*linked.elf).unwrap();

    let dynsym = file.dynamic_symbol_table().unwrap();
    let mut kinds = Vec::new();
    for (_, rel) in file.dynamic_relocations().unwrap() {
        let RelocationFlags::Elf { r_type } = rel.flags() else {
            continue;
        };
        assert_ne!(r_type, 5, "R_X86_64_COPY must never appear");
        if let object::RelocationTarget::Symbol(i) = rel.target() {
            let name = dynsym
                .symbol_by_index(i)
                .unwrap()
                .name()
                .unwrap()
                .to_string();
            kinds.push((name, r_type));
        }
    }
    // R_X86_64_GLOB_DAT = 6 for the data object; calls go through the PLT (JUMP_SLOT = 7).
    assert!(
        kinds.contains(&("__stack_chk_guard".into(), 6)),
        "{kinds:?}"
    );
    assert!(kinds.contains(&("printf".into(), 7)), "{kinds:?}");
    let guard = file
        .dynamic_symbols()
        .find(|s| s.name() == Ok("__stack_chk_guard"))
        .unwrap();
    assert_eq!(guard.kind(), object::SymbolKind::Data);

    // DT_INIT names the crt's _init, and .ctors holds the title's constructor between the
    // crt's -1 and 0 markers.
    let init = file.symbols().find(|s| s.name() == Ok("_init")).unwrap();
    let dynamic = file.section_by_name(".dynamic").unwrap().data().unwrap();
    let dt_init = dynamic
        .chunks_exact(16)
        .map(|c| {
            (
                u64::from_le_bytes(c[..8].try_into().unwrap()),
                u64::from_le_bytes(c[8..].try_into().unwrap()),
            )
        })
        .find(|&(tag, _)| tag == 12)
        .map(|(_, v)| v);
    assert_eq!(dt_init, Some(init.address()));
    let ctors = file.section_by_name(".ctors").unwrap();
    assert_eq!(ctors.size(), 24, "marker, the constructor, end marker");
    let words = ctors.data().unwrap();
    assert_eq!(&words[..8], &[0xff; 8]);
    assert_eq!(&words[16..], &[0; 8]);

    // The writer options that `build` would use.
    let w = &linked.write_options;
    assert_eq!(w.kind, sdk::OutputKind::Executable);
    assert_eq!(w.module_name, "t");
    assert_eq!(w.file_name, "t.bin");
    assert_eq!(w.sdk_version, sdk::SDK_VERSION);
}

#[test]
fn module_exports_its_function_tls_variable_and_entry_points() {
    let Some(tc) = sdk::test_toolchain("module_exports") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("libExample.prx");
    let mut opts = options(tc, &["library.c"], &out);
    opts.module = true;
    sdk::build(&opts).unwrap();

    let bytes = std::fs::read(&out).unwrap();
    let img = sce::Image::parse(&bytes).unwrap();
    assert!(img.is_sce);
    let exported: Vec<&str> = img.exports.iter().map(|e| e.nid.as_str()).collect();
    for name in [
        "library_add",
        "library_counter",
        "module_start",
        "module_stop",
    ] {
        assert!(
            exported.contains(&sce::nid_of(name).as_str()),
            "{name} is not exported: {exported:?}"
        );
    }
    assert!(!exported.contains(&sce::nid_of("library_internal").as_str()));
    assert_eq!(placement(&img, "printf").unwrap().0, "libc");
}

#[test]
fn module_with_hidden_module_start_is_refused() {
    let Some(tc) = sdk::test_toolchain("hidden_module_start") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut opts = options(tc, &["hidden_start.c"], &dir.path().join("bad.prx"));
    opts.module = true;
    match sdk::link(&opts) {
        Err(SdkError::HiddenModuleEntry(name)) => assert_eq!(name, "module_start"),
        other => panic!("expected HiddenModuleEntry, got {other:?}"),
    }
}

#[test]
fn cpp_title_builds() {
    let Some(tc) = sdk::test_toolchain("cpp_title") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("classes.bin");
    let built = sdk::build(&options(tc, &["classes.cpp"], &out)).unwrap();
    for name in ["_Znwm", "printf"] {
        assert_eq!(built.imports[name].module, "libc", "{name}");
    }
    let bytes = std::fs::read(&out).unwrap();
    let img = sce::Image::parse(&bytes).unwrap();
    assert!(placement(&img, "_Znwm").is_some());
}

#[test]
fn every_header_compiles_as_c_and_cpp() {
    let Some(tc) = sdk::test_toolchain("headers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut opts = options(tc.clone(), &["all_headers.c"], &dir.path().join("h.bin"));
    opts.cflags = vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()];
    sdk::link(&opts).unwrap();
    // The same file as C++.
    let cpp = dir.path().join("all_headers.cpp");
    std::fs::copy(title("all_headers.c"), &cpp).unwrap();
    let mut opts = BuildOptions::new([&cpp], dir.path().join("hpp.bin"));
    opts.toolchain = tc;
    opts.cflags = vec!["-Wall".into(), "-Werror".into()];
    sdk::link(&opts).unwrap();
}

#[test]
fn errors_name_the_problem() {
    let Some(tc) = sdk::test_toolchain("errors") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("broken.c");

    // A compile error carries clang's own message.
    std::fs::write(&src, "int main(void) { return undeclared_thing; }\n").unwrap();
    let out = dir.path().join("x.bin");
    let mut opts = BuildOptions::new([&src], &out);
    opts.toolchain = tc.clone();
    let e = sdk::build(&opts).unwrap_err();
    assert!(matches!(e, SdkError::ToolFailed { .. }), "{e}");
    assert!(e.to_string().contains("undeclared_thing"), "{e}");
    assert!(!out.exists(), "no partial output");

    // A function the console does not export.
    std::fs::write(
        &src,
        "void no_such_fn(void);\nint main(void) { no_such_fn(); return 0; }\n",
    )
    .unwrap();
    match sdk::build(&opts) {
        Err(SdkError::UnknownSymbols(names)) => assert_eq!(names, vec!["no_such_fn".to_string()]),
        other => panic!("expected UnknownSymbols, got {other:?}"),
    }

    // No main.
    std::fs::write(&src, "int not_main(void) { return 0; }\n").unwrap();
    assert!(matches!(sdk::build(&opts), Err(SdkError::NoMain)));
}

#[test]
fn missing_tools_name_their_debian_package() {
    let mut opts = BuildOptions::new([title("threads.c")], "unused.bin");
    opts.toolchain.clang = PathBuf::from("/nonexistent/clang-19");
    let e = sdk::build(&opts).unwrap_err();
    assert!(
        e.to_string()
            .contains("install the Debian package clang-19"),
        "{e}"
    );

    let tc = Toolchain {
        clang: "clang-19".into(),
        lld: "/nonexistent/ld.lld-19".into(),
    };
    let e = tc.check().unwrap_err();
    // When clang-19 itself is missing the first check reports it instead; either way the
    // message names a package.
    let text = e.to_string();
    assert!(
        text.contains("lld-19") || text.contains("clang-19"),
        "{text}"
    );
}

#[test]
fn bad_options_are_errors_not_panics() {
    assert!(matches!(
        sdk::build(&BuildOptions::new(Vec::<PathBuf>::new(), "x.bin")),
        Err(SdkError::NoSources)
    ));
    assert!(matches!(
        sdk::build(&BuildOptions::new(["a.rs"], "x.bin")),
        Err(SdkError::UnknownSourceKind(_))
    ));
    assert!(matches!(
        sdk::build(&BuildOptions::new([title("threads.c")], "/")),
        Err(SdkError::BadOutputPath { .. })
    ));
    assert!(matches!(
        sdk::build(&BuildOptions::new(["/nonexistent/a.c"], "x.bin")),
        Err(SdkError::Io { .. })
    ));
}
