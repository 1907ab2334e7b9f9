//! Helpers shared by the tests that build, relink and run titles.
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `native5` binary under test. cargo points LD_LIBRARY_PATH at target/debug,
/// which the host loader searches before a title's RUNPATH, so it is removed: a title
/// must bind to its own OUTDIR/libs.
pub fn native5() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_native5"));
    c.env_remove("LD_LIBRARY_PATH");
    c
}

/// `native5 relink INPUT OUT`, which must succeed.
pub fn relink(input: &Path, out: &Path) {
    let o = native5()
        .arg("relink")
        .arg(input)
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "relink failed: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs `native5 run [EXTRA] OUT` until it exits or `limit` passes (then kills it);
/// returns (exit code, stdout, stderr). `native5 run` execs the title, so the child is
/// the title itself.
pub fn run_with(out: &Path, extra: &[&str], limit: Duration) -> (Option<i32>, String, String) {
    run_with_env(out, extra, &[], limit)
}

/// [`run_with`] with extra environment variables for the title.
pub fn run_with_env(
    out: &Path,
    extra: &[&str],
    env: &[(&str, &Path)],
    limit: Duration,
) -> (Option<i32>, String, String) {
    let mut child = native5()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .arg("run")
        .args(extra)
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (code, stdout.join().unwrap(), stderr.join().unwrap())
}

/// [`run_with`] without extra arguments.
pub fn run(out: &Path, limit: Duration) -> (Option<i32>, String, String) {
    run_with(out, &[], limit)
}

/// Builds a title from `tests/titles/<dir>` with the sdk into `out_dir/eboot.bin`, after
/// building each `(source, path)` module (linked against by the title); `None` (a
/// reported skip) without clang-19.
pub fn build_title(
    test: &str,
    out_dir: &Path,
    dir: &str,
    main: &[&str],
    modules: &[(&str, &str)],
) -> Option<PathBuf> {
    build_title_with(test, out_dir, dir, main, modules, &[])
}

/// [`build_title`] with extra compiler flags for the title's sources.
pub fn build_title_with(
    test: &str,
    out_dir: &Path,
    dir: &str,
    main: &[&str],
    modules: &[(&str, &str)],
    cflags: &[&str],
) -> Option<PathBuf> {
    sdk::test_toolchain(test)?;
    let src = testkit::workspace_root().join("tests/titles").join(dir);
    for (source, rel) in modules {
        let mut o = sdk::BuildOptions::new([src.join(source)], out_dir.join(rel));
        o.module = true;
        sdk::build(&o).unwrap_or_else(|e| panic!("{source}: {e}"));
    }
    let eboot = out_dir.join("eboot.bin");
    let mut o = sdk::BuildOptions::new(main.iter().map(|m| src.join(m)), &eboot);
    o.cflags = cflags.iter().map(|s| s.to_string()).collect();
    o.modules = modules.iter().map(|(_, rel)| out_dir.join(rel)).collect();
    sdk::build(&o).unwrap_or_else(|e| panic!("{dir}: {e}"));
    Some(eboot)
}
