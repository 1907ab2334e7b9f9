//! `native5 shader check` on a committed corpus shader (no RADV needed) and its exit codes.

use std::process::Command;

fn native5() -> Command {
    Command::new(env!("CARGO_BIN_EXE_native5"))
}

#[test]
fn check_passes_a_corpus_shader() {
    if gpu::device::Device::open(None).is_err() {
        assert!(
            !gpu::vulkan_required(),
            "no Vulkan device and NATIVE5_REQUIRE_VULKAN=1"
        );
        eprintln!("skipping check_passes_a_corpus_shader: no Vulkan device");
        return;
    }
    let comp = testkit::workspace_root().join("tests/shaders/compute/add_u32.comp");
    let o = native5()
        .args(["shader", "check"])
        .arg(&comp)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.starts_with("PASS "), "{stdout}");
}

#[test]
fn check_of_a_bad_header_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let comp = dir.path().join("bad.comp");
    std::fs::write(
        &comp,
        "#version 450\n// native5-test: groups=oops\nvoid main() {}\n",
    )
    .unwrap();
    let o = native5()
        .args(["shader", "check"])
        .arg(&comp)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
