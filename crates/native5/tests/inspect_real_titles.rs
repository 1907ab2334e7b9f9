//! `native5 inspect --json` on the real OpenOrbis homebrew titles: exact import lists.

use serde_json::Value;
use std::process::Command;

fn inspect(rel: &str) -> Option<Value> {
    let path = testkit::shared_file("inspect_real_titles", &format!("titles/openorbis/{rel}"))?;
    let out = Command::new(env!("CARGO_BIN_EXE_native5"))
        .args(["inspect", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// `(name, library, module)` of each import, in the JSON's order (sorted by NID).
fn imports(v: &Value) -> Vec<(String, String, String)> {
    let list = v["imports"].as_array().unwrap();
    let nids: Vec<&str> = list.iter().map(|i| i["nid"].as_str().unwrap()).collect();
    let mut sorted = nids.clone();
    sorted.sort();
    assert_eq!(nids, sorted, "imports are sorted by nid");
    list.iter()
        .map(|i| {
            let name = i["name"].as_str().unwrap_or("?").to_string();
            assert_eq!(i["nid"].as_str().unwrap(), sce::nid_of(&name), "{name}");
            (
                name,
                i["library"].as_str().unwrap().into(),
                i["module"].as_str().unwrap().into(),
            )
        })
        .collect()
}

fn expect(list: &[(&str, &str)]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = list
        .iter()
        .map(|(n, m)| (sce::nid_of(n), n.to_string(), m.to_string()))
        .collect();
    v.sort();
    v.into_iter().map(|(_, n, m)| (n, m.clone(), m)).collect()
}

#[test]
fn pthread() {
    let Some(v) = inspect("pthread/eboot.bin") else {
        return;
    };
    assert_eq!(v["type"], "ET_SCE_DYNEXEC (executable)");
    assert!(v["container"]
        .as_str()
        .unwrap()
        .starts_with("fake SELF (PS4"));
    assert_eq!(
        imports(&v),
        expect(&[
            ("printf", "libc"),
            ("sceKernelUsleep", "libkernel"),
            ("scePthreadCancel", "libkernel"),
            ("scePthreadCreate", "libkernel"),
            ("exit", "libc"),
            ("_init_env", "libc"),
            ("atexit", "libc"),
            ("Need_sceLibc", "libc"),
        ])
    );
}

#[test]
fn using_library_eboot() {
    let Some(v) = inspect("using_library/eboot.bin") else {
        return;
    };
    assert_eq!(
        imports(&v),
        expect(&[
            ("atexit", "libc"),
            ("Need_sceLibc", "libc"),
            ("_init_env", "libc"),
            ("printf", "libc"),
            ("exit", "libc"),
            ("sceKernelDlsym", "libkernel"),
            ("sceKernelLoadStartModule", "libkernel"),
        ])
    );
}

#[test]
fn using_library_modules() {
    let Some(top) = inspect("using_library/libExample.prx") else {
        return;
    };
    assert_eq!(
        imports(&top),
        expect(&[("Need_sceLibc", "libc"), ("printf", "libc")])
    );
    assert_eq!(top["module"], true);
    assert_eq!(top["exports"].as_array().unwrap().len(), 1);
    let Some(bundled) = inspect("using_library/sce_module/libExample.prx") else {
        return;
    };
    assert_eq!(
        imports(&bundled),
        expect(&[("printf", "libSceLibcInternal")])
    );
    let e = &bundled["exports"][0];
    assert_eq!(e["library"], "libExample");
    assert_eq!(e["module"], "libExample");
}

#[test]
fn graphics() {
    let Some(v) = inspect("graphics/eboot.bin") else {
        return;
    };
    let mut want = vec![];
    for n in [
        "sceVideoOutSetFlipRate",
        "sceVideoOutAddFlipEvent",
        "sceVideoOutGetFlipStatus",
        "sceVideoOutSubmitFlip",
        "sceVideoOutOpen",
        "sceVideoOutSetBufferAttribute",
        "sceVideoOutClose",
        "sceVideoOutRegisterBuffers",
    ] {
        want.push((n, "libSceVideoOut"));
    }
    for n in [
        "calloc",
        "atexit",
        "Need_sceLibc",
        "_init_env",
        "printf",
        "free",
        "exit",
    ] {
        want.push((n, "libc"));
    }
    for n in [
        "sceKernelCreateEqueue",
        "sceKernelMapDirectMemory",
        "sceKernelReleaseDirectMemory",
        "sceKernelWaitEqueue",
        "sceKernelGetDirectMemorySize",
        "sceKernelAllocateDirectMemory",
    ] {
        want.push((n, "libkernel"));
    }
    assert_eq!(imports(&v), expect(&want));
}

#[test]
fn nid_prints_nid_name_lines() {
    let out = Command::new(env!("CARGO_BIN_EXE_native5"))
        .args(["nid", "printf", "sceKernelUsleep"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "hcuQgD53UxM printf\n1jfXLRVzisc sceKernelUsleep\n"
    );
}

#[test]
fn bad_input_exits_2_with_offset() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.bin");
    std::fs::write(&p, b"\x7fELF\x02\x01\x01\x09").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_native5"))
        .arg("inspect")
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("offset 0x"), "{err}");
}

#[test]
fn bad_arguments_exit_1() {
    let out = Command::new(env!("CARGO_BIN_EXE_native5"))
        .arg("inspect")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn sdk_built_title_inspects_back_with_its_imports() {
    if sdk::test_toolchain("sdk_built_title_inspects_back").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("t.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include <stdlib.h>\n#include <kernel.h>\n\
         static void *run(void *a) { return a; }\n\
         int main(void) { ScePthread t; void *p = malloc(8); printf(\"%p\\n\", p);\n\
         return scePthreadCreate(&t, NULL, run, p, \"t\"); }\n",
    )
    .unwrap();
    let out = dir.path().join("eboot.bin");
    let b = Command::new(env!("CARGO_BIN_EXE_native5"))
        .args(["sdk", "build", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let o = Command::new(env!("CARGO_BIN_EXE_native5"))
        .args(["inspect", "--json"])
        .arg(&out)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let find = |n: &str| {
        v["imports"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["nid"] == sce::nid_of(n))
            .map(|i| {
                (
                    i["module"].as_str().unwrap().to_string(),
                    i["library"].as_str().unwrap().to_string(),
                )
            })
    };
    assert_eq!(find("printf"), Some(("libc".into(), "libc".into())));
    assert_eq!(find("malloc"), Some(("libc".into(), "libc".into())));
    assert_eq!(
        find("scePthreadCreate"),
        Some(("libkernel".into(), "libkernel".into()))
    );
}
