//! libkernel files, mounts, time and platform queries: SDK-built C titles
//! (tests/titles/kernel/files.c, time.c, misc.c), relinked and run natively. Each title
//! checks return values and SCE error codes itself and prints one line per area; the test
//! compares the whole output and the exit code.

mod common;

use common::{build_title_with, relink, run_with_env};
use std::path::Path;
use std::time::Duration;

/// Builds `tests/titles/kernel/<source>` with `prepare(title folder)` run first (what is
/// there becomes /app0), relinks it to `out`, runs `setup(out, data dir)` and then the
/// title with `NATIVE5_DATA_DIR` pointing at a fresh folder. Asserts exit code 0 and
/// exactly `expected` on stdout; skips without clang-19. Returns the folder (OUTDIR is
/// `out/`, the data dir `data/`), alive until dropped.
fn expect(
    test: &str,
    source: &str,
    prepare: impl FnOnce(&Path),
    setup: impl FnOnce(&Path, &Path),
    expected: &str,
) -> Option<tempfile::TempDir> {
    let dir = tempfile::tempdir().unwrap();
    prepare(dir.path());
    let eboot = build_title_with(test, dir.path(), "kernel", &[source], &[], &[])?;
    let out = dir.path().join("out");
    relink(&eboot, &out);
    let data = dir.path().join("data");
    setup(&out, &data);
    let (code, stdout, stderr) = run_with_env(
        &out,
        &[],
        &[("NATIVE5_DATA_DIR", &data)],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(stdout, expected, "stderr:\n{stderr}");
    Some(dir)
}

#[test]
fn files_folders_mounts_escapes_and_devices() {
    let dir = expect(
        "kernel_files_data_dir",
        "files.c",
        |title| {
            std::fs::create_dir_all(title.join("Data")).unwrap();
            std::fs::write(title.join("Data/Hello.txt"), "from app0").unwrap();
        },
        |out, data| {
            // NATIVE5_DATA_DIR replaces the per-title folder's parent; the title's folder
            // is named after OUTDIR ("out"). Links that lead out of the mounts:
            let temp0 = data.join("out/temp0");
            std::fs::create_dir_all(&temp0).unwrap();
            std::os::unix::fs::symlink("/etc", temp0.join("out")).unwrap();
            std::os::unix::fs::symlink("/nonexistent", temp0.join("dangling")).unwrap();
            std::os::unix::fs::symlink("/etc/hostname", out.join("app0/link")).unwrap();
        },
        "open/read/write: ok\nerrors: ok\nlisting: ./4 ../4 a/8 b/8 sub/4\nlisting again: \
         ./4 ../4 a/8 b/8 sub/4\nfolders: ok\napp0: ok\nescapes: ok\ndevices: ok\n\
         stdio via write\nstdio via sceKernelWrite\nfiles: 0 failures\n",
    );
    if let Some(dir) = dir {
        let data = dir.path().join("data");
        // What the title wrote is on the host, where the README says.
        let saved = std::fs::read_to_string(data.join("out/savedata0/a.txt"));
        assert_eq!(saved.ok().as_deref(), Some("HELLO world!"));
        assert!(data.join("out/temp0/t").is_file());
        assert!(data.join("out/download0/t").is_file());
    }
}

#[test]
fn clocks_process_time_tsc_and_sleeps() {
    let _ = expect(
        "kernel_time",
        "time.c",
        |_| {},
        |_, _| {},
        "clocks: ok\nmonotonic: ok\nrealtime: ok\nprocess time: ok\ntsc: ok\nsleep: ok\n\
         time: 0 failures\n",
    );
}

#[test]
fn platform_sdk_version_pid_and_cpu() {
    let _ = expect(
        "kernel_misc",
        "misc.c",
        |_| {},
        |_, _| {},
        "platform: ok\nsdk version: 0x5500000\npid/cpu: ok\nmisc: 0 failures\n",
    );
}
