//! `native5 relink` + `native5 run` on real titles: they run natively on this machine.

mod common;

use common::{build_title, native5, relink, run};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn shared_title(test: &str, rel: &str) -> Option<PathBuf> {
    testkit::shared_file(test, &format!("titles/openorbis/{rel}"))
}

#[test]
fn pthread_runs_both_threads_and_exits_0() {
    let Some(input) = shared_title("pthread", "pthread/eboot.bin") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    relink(&input, &out);
    let (code, stdout, stderr) = run(&out, Duration::from_secs(30));
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    for who in ["A", "B"] {
        for i in 0..10 {
            let line = format!("Thread {who} is running: {i}");
            assert!(
                stdout.lines().any(|l| l.trim_end() == line),
                "missing {line:?} in:\n{stdout}"
            );
        }
    }
}

#[test]
fn using_library_loads_its_module_and_calls_it() {
    let Some(input) = shared_title("using_library", "using_library/eboot.bin") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    relink(&input, &out);
    assert!(out.join("app0/sce_module/libExample.prx").is_file());
    assert!(out.join("app0/libExample.prx").is_file());
    // The title loops forever after printing; give it a few seconds, then kill it.
    let (_, stdout, stderr) = run(&out, Duration::from_secs(5));
    assert!(
        stdout.contains("This is a print from a test library function!"),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    // The library's print has no newline, so `rv = 0x…` follows it on the same line.
    assert!(stdout.contains("rv = 0x"), "stdout:\n{stdout}");
}

#[test]
fn bad_input_exits_2_and_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("eboot.bin");
    std::fs::write(&input, b"\x4f\x15\x3d\x1d garbage").unwrap();
    let out = dir.path().join("out");
    let o = native5()
        .arg("relink")
        .arg(&input)
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("offset"));
    assert!(!out.exists(), "no output folder after a failure");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".native5"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary folders left: {leftovers:?}"
    );
}

#[test]
fn relink_bad_arguments_exit_1() {
    let o = native5()
        .args(["relink", "--unused-filter", "7", "a", "b"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = native5().arg("relink").output().unwrap();
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn sdk_module_title_loads_its_prx_at_start_and_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let title = dir.path().join("title");
    let Some(eboot) = build_title(
        "module_title",
        &title,
        "module",
        &["main.c"],
        &[("libmodule.c", "sce_module/libmodule.prx")],
    ) else {
        return;
    };
    let out = dir.path().join("out");
    relink(&eboot, &out);
    let (code, stdout, stderr) = run(&out, Duration::from_secs(20));
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(
        stdout, "module_start ran (1)\ndirect module_add(1, 2) = 1010\nloaded: start result 0\nmodule_add(1, 2) = 1033\n",
        "stderr:\n{stderr}"
    );
}

#[test]
fn hello_example_runs_and_exits_42() {
    let dir = tempfile::tempdir().unwrap();
    let input = testkit::workspace_root().join("examples/hello/eboot.bin");
    let out = dir.path().join("out");
    relink(&input, &out);
    let (code, stdout, stderr) = run(&out, Duration::from_secs(20));
    assert_eq!(code, Some(42), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("hello from a PS5 title (argc=1)"),
        "{stdout}"
    );
    assert!(stdout.contains("static constructor ran: yes"), "{stdout}");
    assert!(
        stdout.contains("thread_local: worker saw 105, main sees 102"),
        "{stdout}"
    );
}

#[test]
fn committed_example_matches_what_the_sdk_builds_today() {
    if sdk::test_toolchain("example_is_current").is_none() {
        return;
    }
    let root = testkit::workspace_root().join("examples/hello");
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("eboot.bin");
    sdk::build(&sdk::BuildOptions::new([root.join("hello.c")], &fresh)).unwrap();
    let a = sce::Image::parse(&std::fs::read(root.join("eboot.bin")).unwrap()).unwrap();
    let b = sce::Image::parse(&std::fs::read(&fresh).unwrap()).unwrap();
    let imports = |i: &sce::Image| {
        let mut v: Vec<_> = i
            .imports
            .iter()
            .map(|x| (x.nid.clone(), x.library.clone(), x.module.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        imports(&a),
        imports(&b),
        "rebuild examples/hello/eboot.bin with `native5 sdk build`"
    );
    let loaded = |i: &sce::Image| -> Vec<(u64, Vec<u8>)> {
        i.segments
            .iter()
            .filter(|s| s.is_loaded())
            .map(|s| {
                (
                    s.vaddr,
                    i.elf[s.offset as usize..(s.offset + s.filesz) as usize].to_vec(),
                )
            })
            .collect()
    };
    assert!(
        loaded(&a) == loaded(&b),
        "examples/hello/eboot.bin differs in code or data from a fresh build; regenerate it with \
         `native5 sdk build -o examples/hello/eboot.bin examples/hello/hello.c`"
    );
}

#[test]
fn raw_syscall_is_refused_with_its_address() {
    let dir = tempfile::tempdir().unwrap();
    let title = dir.path().join("title");
    let Some(eboot) = build_title("raw_syscall", &title, "syscall", &["raw.c"], &[]) else {
        return;
    };
    let out = dir.path().join("out");
    let o = native5()
        .arg("relink")
        .arg(&eboot)
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("raw system call `syscall` at 0x"), "{err}");
    assert!(err.contains("in the function at 0x"), "{err}");
    assert!(!out.exists());
    // --allow-syscalls is the debugging escape hatch.
    let o = native5()
        .args(["relink", "--allow-syscalls"])
        .arg(&eboot)
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn syscall_bytes_that_are_data_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let title = dir.path().join("title");
    let Some(eboot) = build_title("syscall_data", &title, "syscall", &["data_in_text.c"], &[])
    else {
        return;
    };
    let out = dir.path().join("out");
    relink(&eboot, &out);
    let (code, stdout, stderr) = run(&out, Duration::from_secs(20));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "7 20\n");
}

/// The `class` of each import in OUTDIR/imports.json, by name.
fn registry(out: &Path) -> std::collections::BTreeMap<String, String> {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("imports.json")).unwrap()).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap_or("?").to_string(),
                e["class"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn unused_filter_levels_drop_what_no_reachable_code_uses() {
    let dir = tempfile::tempdir().unwrap();
    let title = dir.path().join("title");
    let Some(eboot) = build_title("unused_filter", &title, "unused", &["main.c"], &[]) else {
        return;
    };
    let mut classes = Vec::new();
    for level in ["0", "1", "2"] {
        let out = dir.path().join(format!("out{level}"));
        let o = native5()
            .args(["relink", "--registry", "--unused-filter", level])
            .arg(&eboot)
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let r = registry(&out);
        classes.push((
            r["sceKernelGetProcessTime"].clone(),
            r["sceKernelUsleep"].clone(),
        ));
        assert_eq!(r["printf"], "implemented");
        let (code, stdout, stderr) = run(&out, Duration::from_secs(20));
        assert_eq!(
            (code, stdout.as_str()),
            (Some(0), "ok\n"),
            "level {level}: {stderr}"
        );
    }
    assert_eq!(classes[0].1, "implemented");
    assert_ne!(classes[0].0, "dropped");
    assert_eq!(
        classes[1],
        ("dropped".to_string(), "implemented".to_string())
    );
    assert_eq!(classes[2], ("dropped".to_string(), "dropped".to_string()));
}

#[test]
fn app_elf_runs_directly_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    relink(
        &testkit::workspace_root().join("examples/hello/eboot.bin"),
        &out,
    );
    let o = Command::new(out.join("app.elf"))
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(42),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("hello from a PS5 title"));
}

#[test]
fn title_reads_its_process_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let title = dir.path().join("title");
    let Some(eboot) = build_title("procparam", &title, "procparam", &["main.c"], &[]) else {
        return;
    };
    let out = dir.path().join("out");
    relink(&eboot, &out);
    let (code, stdout, stderr) = run(&out, Duration::from_secs(20));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout,
        format!("size 0x50 magic ORBI sdk {:#x}\n", sdk::SDK_VERSION)
    );
}

#[test]
fn unimplemented_import_reports_its_nid_and_name_when_called() {
    let dir = tempfile::tempdir().unwrap();
    let title = dir.path().join("title");
    let Some(eboot) = build_title("missing_import", &title, "missing", &["main.c"], &[]) else {
        return;
    };
    let out = dir.path().join("out");
    let o = native5()
        .args(["relink", "--nids"])
        .arg(testkit::workspace_root().join("tests/titles/missing/names.txt"))
        .arg(&eboot)
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listed = String::from_utf8_lossy(&o.stdout);
    assert!(
        listed.contains(&format!(
            "not implemented: app.elf: {} sceNetInit",
            sce::nid_of("sceNetInit")
        )),
        "{listed}"
    );
    let (code, stdout, stderr) = run(&out, Duration::from_secs(20));
    assert_eq!(stdout, "before the call\n");
    assert_eq!(code, None, "killed by SIGABRT, so no exit code");
    let want = format!("import {} (sceNetInit)", sce::nid_of("sceNetInit"));
    assert!(stderr.contains(&want), "{stderr}");
}

#[test]
fn runtime_stubs_are_classed_and_return_their_error() {
    let dir = tempfile::tempdir().unwrap();
    let title = dir.path().join("title");
    let Some(eboot) = build_title("runtime_stub", &title, "stub", &["main.c"], &[]) else {
        return;
    };
    let out = dir.path().join("out");
    let o = native5()
        .args(["relink", "--registry"])
        .arg(&eboot)
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("runtime stub (returns an error): app.elf:")
    );
    let r = registry(&out);
    assert_eq!(r["sceVideoOutAddVblankEvent"], "unimplemented stub");
    assert_eq!(r["sceKernelCreateEqueue"], "implemented");
    let (code, stdout, stderr) = run(&out, Duration::from_secs(20));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "0x8002004e 0x8002004e\n");
    assert_eq!(
        stderr.matches("sceVideoOutAddVblankEvent").count(),
        1,
        "logged once: {stderr}"
    );
}
