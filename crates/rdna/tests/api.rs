//! The public API on hand-checked words (texts checked against llvm-mc 14).

use rdna::{
    decode, decode_wave, disassemble, DecodeError, Encoding, Form, Operand, Target, WaveSize,
};

#[test]
fn decodes_a_scalar_move() {
    let i = decode(&[0x01, 0x03, 0x80, 0xbe], Target::Gfx1013).unwrap();
    assert_eq!(i.encoding, Encoding::Sop1);
    assert_eq!(i.len, 4);
    assert_eq!(i.text, "s_mov_b32 s0, s1");
    assert_eq!(i.mnemonic(), "s_mov_b32");
    assert_eq!(i.opcode, rdna::Opcode::SMovB32);
    assert_eq!(
        i.operands[1],
        ("ssrc0", Operand::Sgpr { first: 1, count: 1 })
    );
}

#[test]
fn literal_and_wave_dependent_vcc() {
    let b = [0xff, 0x02, 0x00, 0x7e, 0x00, 0x00, 0x80, 0x3f];
    let i = decode(&b, Target::Gfx1030).unwrap();
    assert_eq!(
        (i.len, i.text.as_str(), i.literal),
        (8, "v_mov_b32_e32 v0, 1.0", Some(0x3f80_0000))
    );
    let c = [0x82, 0x02, 0x02, 0x02];
    assert_eq!(
        decode(&c, Target::Gfx1013).unwrap().text,
        "v_cndmask_b32_e32 v1, 2, v1, vcc_lo"
    );
    let w64 = decode_wave(&c, Target::Gfx1013, WaveSize::Wave64).unwrap();
    assert_eq!(w64.text, "v_cndmask_b32_e32 v1, 2, v1, vcc");
}

#[test]
fn dpp_form() {
    let b = [0xfa, 0x02, 0x02, 0x7e, 0x02, 0x39, 0x0c, 0xa5];
    let i = decode(&b, Target::Gfx1013).unwrap();
    assert_eq!(i.form, Form::Dpp16);
    assert_eq!(
        i.text,
        "v_mov_b32_dpp v1, v2 quad_perm:[1,2,3,0] row_mask:0xa bank_mask:0x5 bound_ctrl:1 fi:1"
    );
}

#[test]
fn errors_not_panics() {
    assert!(matches!(
        decode(&[], Target::Gfx1013),
        Err(DecodeError::Truncated { .. })
    ));
    assert!(matches!(
        decode(&[0xff, 0x02, 0x00, 0x7e], Target::Gfx1013),
        Err(DecodeError::Truncated { .. })
    ));
    assert!(decode(&[0xff, 0xff, 0xff, 0xff], Target::Gfx1013).is_err());
}

#[test]
fn disassemble_prints_long_for_undecodable_words() {
    let b = [
        0x01, 0x03, 0x80, 0xbe, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x81, 0xbf, 0xaa,
    ];
    let t = disassemble(&b, Target::Gfx1013, WaveSize::Wave32, 0);
    assert_eq!(
        t,
        "\ts_mov_b32 s0, s1\n\t.long 0xffffffff\n\ts_endpgm\n\t.byte 0xaa\n"
    );
    let t = disassemble(&b, Target::Gfx1013, WaveSize::Wave32, 8);
    assert_eq!(t, "\ts_endpgm\n\t.byte 0xaa\n");
}
