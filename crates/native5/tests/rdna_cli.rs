//! `native5 rdna disasm` and `native5 rdna coverage`.

use std::process::Command;

fn disasm(args: &[&str], bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("code.bin");
    std::fs::write(&f, bytes).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_native5"))
        .args(["rdna", "disasm"])
        .args(args)
        .arg(&f)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

// v_cndmask_b32_e32 v0, v1, v2, vcc ; s_endpgm
const CODE: [u8; 8] = [0x01, 0x05, 0x00, 0x02, 0x00, 0x00, 0x81, 0xbf];

#[test]
fn wave_size_selects_vcc_lo_or_vcc() {
    assert_eq!(
        disasm(&[], &CODE),
        "\tv_cndmask_b32_e32 v0, v1, v2, vcc_lo\n\ts_endpgm\n"
    );
    for mcpu in ["gfx1013", "gfx1030"] {
        assert_eq!(
            disasm(&["--mcpu", mcpu, "--wave", "64"], &CODE),
            "\tv_cndmask_b32_e32 v0, v1, v2, vcc\n\ts_endpgm\n"
        );
    }
    assert_eq!(disasm(&["--offset", "4"], &CODE), "\ts_endpgm\n");
}

#[test]
fn bad_wave_is_a_usage_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_native5"))
        .args(["rdna", "disasm", "--wave", "16", "x"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn coverage_lists_both_targets() {
    let o = Command::new(env!("CARGO_BIN_EXE_native5"))
        .args(["rdna", "coverage"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("gfx1013") && text.contains("gfx1030"),
        "{text}"
    );
}
