//! libkernel memory, event queues and APR/AMM command buffers: SDK-built C titles
//! (tests/titles/kernel/), relinked and run natively. Each title checks return values and
//! SCE error codes itself and prints one line per area; the test compares the output.

mod common;

use common::{build_title_with, native5, relink, run};
use std::io::Read;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Builds and relinks `tests/titles/kernel/<source>`; `None` (skip) without clang-19.
fn prepare(test: &str, source: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    let dir = tempfile::tempdir().unwrap();
    let eboot = build_title_with(test, dir.path(), "kernel", &[source], &[], &[])?;
    let out = dir.path().join("out");
    relink(&eboot, &out);
    Some((dir, out))
}

/// Runs a title and asserts exit code 0 and exactly `expected` on stdout.
fn expect(test: &str, source: &str, limit_s: u64, expected: &str) {
    let Some((_dir, out)) = prepare(test, source) else {
        return;
    };
    let start = Instant::now();
    let (code, stdout, stderr) = run(&out, Duration::from_secs(limit_s));
    eprintln!("{test}: ran in {:?}", start.elapsed());
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(stdout, expected, "stderr:\n{stderr}");
}

/// A `kB` field of /proc/<pid>/status.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with(field))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The memory title maps and unmaps 10,000 times (64 KiB flexible + 256 KiB direct,
/// every page touched: a leak would be over 3 GiB). The test samples the title's VmRSS
/// and peak VmHWM from /proc while it runs (the title waits 0.4 s before exiting so the
/// last sample sees the end state); the peak must stay small.
#[test]
fn memory_direct_flexible_ranges_and_no_leak() {
    let Some((_dir, out)) = prepare("kernel_memory", "memory.c") else {
        return;
    };
    let mut child = native5()
        .arg("run")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let (mut first_rss, mut last_rss, mut hwm) = (None, 0u64, 0u64);
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if let (Some(r), Some(h)) = (status_kb(pid, "VmRSS:"), status_kb(pid, "VmHWM:")) {
            first_rss.get_or_insert(r);
            last_rss = r;
            hwm = hwm.max(h);
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stdout, stderr) = (t_out.join().unwrap(), t_err.join().unwrap());
    eprintln!(
        "memory: ran in {:?}; VmRSS first {} kB, last {last_rss} kB, peak VmHWM {hwm} kB",
        start.elapsed(),
        first_rss.unwrap_or(0)
    );
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(
        stdout, "direct: ok\nflexible: ok\nranges: ok\nmap/unmap x10000: ok\nmemory: 0 failures\n",
        "stderr:\n{stderr}"
    );
    assert!(hwm > 0, "no /proc samples of the title");
    assert!(hwm < 256 * 1024, "peak RSS {hwm} kB: mapped memory leaks");
}

/// APR/AMM: inline completion, a wait satisfied after the submit returns (order kept behind
/// it), an AMM buffer completing while an APR buffer waits, counters, event-queue
/// completions and AMM mapping of one physical range at two addresses.
#[test]
fn apr_amm_command_buffers() {
    expect(
        "kernel_apr",
        "apr.c",
        60,
        "builder: ok\ninline: ok\ndeferred: ok\ncounters/equeue: ok\namm mapping: ok\n\
         apr: 0 failures\n",
    );
}

/// Event queues: level and edge user events, periodic and HR timers, getters, deletion.
#[test]
fn event_queues_user_and_timer_events() {
    expect(
        "kernel_equeue",
        "equeue.c",
        30,
        "user events: ok\ntimers: ok\ndelete: ok\nequeue: 0 failures\n",
    );
}
