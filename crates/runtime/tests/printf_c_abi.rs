//! The printf exports called from C compiled by the host C compiler (`cc`, which cargo
//! needs as its linker anyway): real compiler-built variadic calls and `va_list`s,
//! including `long double` arguments, which Rust cannot pass.

use std::process::Command;

#[test]
fn c_callers_and_c_va_lists() {
    let exe = std::env::current_exe().expect("test executable path");
    let so = exe
        .parent()
        .expect("deps dir")
        .join("libnative5_runtime.so");
    assert!(so.exists(), "{} not built", so.display());
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/printf_abi.c");
    let bin = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("printf_abi");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .args(["-O1", "-o"])
        .arg(&bin)
        .arg(src)
        .arg("-ldl")
        .status()
        .unwrap_or_else(|e| panic!("running {cc}: {e}"));
    assert!(status.success(), "{cc} failed");
    let out = Command::new(&bin)
        .arg(&so)
        .args(["snprintf", "vsnprintf", "vasprintf"].map(sce::nid_of))
        .output()
        .expect("running printf_abi");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    // Ours against the host glibc, with long doubles in the middle of the stack area.
    let (count, ours) = lines[0].split_once(' ').unwrap();
    assert_eq!(ours, lines[1]);
    assert_eq!(count.parse::<usize>().unwrap(), ours.len());
    assert_eq!(
        ours,
        "1 0.333333 2 0.3333333333333333333423684 2.500000e+00 3 4 5 6 x 7 -1e+4000 6.000e-4000|  9.2"
    );
    // vsnprintf continues a C-built va_list where its caller left it.
    assert_eq!(lines[2], "31 1 1.25 0.500000 2 3 4 5 6 7 8.5");
    // vasprintf; `%La` normalized (glibc would print 0xcp-2).
    assert_eq!(lines[3], "20 as-003.1--5-0x1.8p+1");
}
