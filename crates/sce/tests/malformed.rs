//! Malformed input gets an error naming an offset and a field, never a panic.

use sce::{Error, Image};

fn titles() -> Vec<Vec<u8>> {
    let Some(dir) = testkit::shared_data("malformed") else {
        return vec![std::fs::read(format!(
            "{}/tests/data/hello.pie.elf",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()];
    };
    [
        "pthread/eboot.bin",
        "using_library/eboot.bin",
        "using_library/libExample.prx",
        "using_library/sce_module/libExample.prx",
        "graphics/eboot.bin",
    ]
    .iter()
    .map(|r| std::fs::read(dir.join("titles/openorbis").join(r)).unwrap())
    .collect()
}

/// A small deterministic generator, so failures reproduce.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn truncations_are_errors() {
    for data in titles() {
        for len in (0..data.len()).step_by(7) {
            if let Err(e) = Image::parse(&data[..len]) {
                assert!(matches!(e, Error::Malformed { .. }), "len {len}: {e}");
            }
        }
    }
}

#[test]
fn corruptions_never_panic() {
    let mut rng = Lcg(7);
    for data in titles() {
        for _ in 0..3000 {
            let mut d = data.clone();
            for _ in 0..1 + rng.next() % 4 {
                let at = (rng.next() as usize) % d.len();
                d[at] = rng.next() as u8;
            }
            let _ = Image::parse(&d);
        }
    }
}

#[test]
fn encrypted_self_is_refused_with_advice() {
    let Some(data) = titles().into_iter().next() else {
        return;
    };
    if data[..4] != [0x4F, 0x15, 0x3D, 0x1D] {
        return;
    }
    let mut d = data.clone();
    // Entry 1 is the first blocked (data) segment; set its encrypted bit.
    d[0x40] |= 0x2;
    let e = Image::parse(&d).unwrap_err();
    assert!(matches!(e, Error::EncryptedSelf { segment: 1, .. }), "{e}");
    assert!(e.to_string().contains("decrypted"), "{e}");
}

#[test]
fn errors_name_offset_and_field() {
    let e = Image::parse(b"\x7fELF\x01").unwrap_err().to_string();
    assert!(e.contains("offset 0x4") && e.contains("EI_CLASS"), "{e}");
    let e = Image::parse(b"MZ").unwrap_err().to_string();
    assert!(e.contains("offset 0x0"), "{e}");
}

#[test]
fn ps5_self_magic_unwraps_the_same_elf() {
    let Some(data) = titles().into_iter().next() else {
        return;
    };
    if data[..4] != [0x4F, 0x15, 0x3D, 0x1D] {
        return;
    }
    let mut d = data.clone();
    d[..4].copy_from_slice(&[0x54, 0x14, 0xF5, 0xEE]);
    let a = Image::parse(&data).unwrap();
    let b = Image::parse(&d).unwrap();
    assert_eq!(a.elf, b.elf);
    match b.container {
        sce::Container::FakeSelf(h) => assert_eq!(h.kind, sce::self_file::SelfKind::Ps5),
        other => panic!("{other:?}"),
    }
}
