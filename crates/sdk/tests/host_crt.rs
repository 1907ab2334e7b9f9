//! Runs the sdk's crt on the host. The title objects are compiled for x86_64-sie-ps5 as
//! usual (the calling convention is the host's), then linked with the host's glibc
//! instead of stub libraries, so the crt's behaviour can be observed before native5 can
//! run PS5 binaries:
//!
//! - glibc's start code calls the main program's DT_INIT, which is the crt's `_init`, so
//!   constructors must run in priority order, and DT_FINI (`_fini`) runs destructors;
//! - a harness calls the crt's `_start` with the console's entry ABI (rdi = argc/argv/envp
//!   block, rsi = exit callback) and checks what `main` received and that the callback ran.
//!
//! They skip when the host's C start files (libc6-dev) are missing.

use std::path::{Path, PathBuf};
use std::process::Command;

const SCRT1: &str = "/usr/lib/x86_64-linux-gnu/Scrt1.o";

fn title(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/titles")
        .join(name)
}

fn host_ready(test: &str) -> Option<sdk::Toolchain> {
    let tc = sdk::test_toolchain(test)?;
    if !Path::new(SCRT1).exists() {
        eprintln!("skipping {test}: {SCRT1} is missing (install libc6-dev)");
        return None;
    }
    Some(tc)
}

fn run(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn crt_runs_constructors_in_priority_order_and_destructors() {
    let Some(tc) = host_ready("crt_constructors") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut opts = sdk::BuildOptions::new([title("ctor_order.c")], dir.path().join("o.bin"));
    opts.toolchain = tc.clone();
    opts.keep_temps = true;
    opts.cflags = vec!["-fno-stack-protector".into()];
    let linked = sdk::link(&opts).unwrap();
    let work = linked.work_dir.unwrap();
    let exe = dir.path().join("ctor_order.host");
    run(Command::new(&tc.clang)
        .args(["-fuse-ld=lld", "-nostartfiles", "-pie", SCRT1])
        .arg(work.join("crt/crtbegin.o"))
        .arg(work.join("obj/0-ctor_order.o"))
        .arg(work.join("crt/crtend.o"))
        .arg("-o")
        .arg(&exe));
    std::fs::remove_dir_all(&work).unwrap();
    let out = run(&mut Command::new(&exe));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "order=abc\ndestructor ran\n"
    );
}

#[test]
fn crt_start_takes_the_console_entry_abi() {
    let Some(tc) = host_ready("crt_entry") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let crt1 = sdk::files::CRT_SOURCES
        .iter()
        .find(|(n, _)| *n == "crt1.c")
        .unwrap()
        .1;
    std::fs::write(d.join("crt1.c"), crt1).unwrap();
    std::fs::copy(title("entry.c"), d.join("entry.c")).unwrap();
    // The harness plays the loader: it builds the stack-style block and passes the exit
    // callback, as native5's entry stub will.
    std::fs::write(
        d.join("harness.c"),
        r#"
#include <stdio.h>
void sce_start(long *block, void (*exit_callback)(void));
static void on_exit_callback(void) { printf("exit callback ran\n"); fflush(stdout); }
int main(void) {
    long block[] = {2, (long)"eboot.bin", (long)"--flag", 0, (long)"HOME=/app0", 0, 0, 0};
    sce_start(block, on_exit_callback);
    return 99; /* never reached: _start exits */
}
"#,
    )
    .unwrap();
    // Rename the crt's _start and the title's main, so they can live beside the host's.
    let ps5 = [
        "--target=x86_64-sie-ps5",
        "-fno-stack-protector",
        "-D_start=sce_start",
        "-Dmain=title_main",
        "-c",
    ];
    run(Command::new(&tc.clang)
        .args(ps5)
        .args(["crt1.c", "entry.c"])
        .current_dir(d));
    run(Command::new(&tc.clang)
        .args([
            "-fuse-ld=lld",
            "harness.c",
            "crt1.o",
            "entry.o",
            "-o",
            "entry.host",
        ])
        .current_dir(d));
    let out = Command::new(d.join("entry.host")).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "main's return value is the exit status"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "argc=2 argv0=eboot.bin argv1=--flag env0=HOME=/app0\nexit callback ran\n"
    );
}
