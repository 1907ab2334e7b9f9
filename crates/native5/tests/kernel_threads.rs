//! libkernel threads and synchronization: SDK-built C titles (tests/titles/kernel/), relinked
//! and run natively. Each title checks return values and SCE error codes itself and prints
//! one line per area; the test compares the whole output and the exit code.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn native5() -> Command {
    Command::new(env!("CARGO_BIN_EXE_native5"))
}

/// Builds `tests/titles/kernel/<source>` with the sdk (extra `cflags`), relinks it and runs
/// it for at most `limit`; `None` (skip) without clang-19. Returns (exit code, stdout,
/// stderr, run time).
fn run_title(
    test: &str,
    source: &str,
    cflags: &[&str],
    limit: Duration,
) -> Option<(Option<i32>, String, String, Duration)> {
    sdk::test_toolchain(test)?;
    let dir = tempfile::tempdir().unwrap();
    let src = testkit::workspace_root().join("tests/titles/kernel").join(source);
    let eboot = dir.path().join("eboot.bin");
    let mut o = sdk::BuildOptions::new([src], &eboot);
    o.cflags = cflags.iter().map(|s| s.to_string()).collect();
    sdk::build(&o).unwrap_or_else(|e| panic!("{source}: {e}"));
    let out = dir.path().join("out");
    relink(&eboot, &out);
    Some(run(&out, limit))
}

fn relink(input: &Path, out: &Path) {
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

fn run(out: &Path, limit: Duration) -> (Option<i32>, String, String, Duration) {
    // cargo points LD_LIBRARY_PATH at target/debug, which the host loader searches before
    // the title's RUNPATH: drop it so the title binds to its own libs/.
    let mut child = native5()
        .env_remove("LD_LIBRARY_PATH")
        .arg("run")
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let ereader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
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
    let took = start.elapsed();
    (code, reader.join().unwrap(), ereader.join().unwrap(), took)
}

/// Runs a title and asserts exit code 0 and exactly `expected` on stdout.
fn expect(test: &str, source: &str, cflags: &[&str], limit_s: u64, expected: &str) {
    let Some((code, stdout, stderr, took)) =
        run_title(test, source, cflags, Duration::from_secs(limit_s))
    else {
        return;
    };
    eprintln!("{test}: ran in {took:?}");
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(stdout, expected, "stderr:\n{stderr}");
}

#[test]
fn threads_create_join_attributes_names_priorities() {
    expect(
        "kernel_threads",
        "threads.c",
        &[],
        30,
        "create/join: ok\nexit: ok\nerrors: ok\nattributes: ok\nstack: ok\ndetach: ok\n\
         self/equal/names: ok\npriority/affinity: ok\nonce: ok\nposix: ok\nthreads: 0 failures\n",
    );
}
