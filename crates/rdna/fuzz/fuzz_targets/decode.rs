//! Fuzzes the decoder and the disassembler: any bytes must give a result or
//! an error, never a panic, in all four target × wave configurations.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdna::{decode_strict, decode_wave, disassemble, Target, WaveSize};

fuzz_target!(|data: &[u8]| {
    for t in [Target::Gfx1013, Target::Gfx1030] {
        for w in [WaveSize::Wave32, WaveSize::Wave64] {
            if let Ok(i) = decode_wave(data, t, w) {
                assert!(i.len >= 4 && i.len <= data.len());
            }
            let _ = decode_strict(data, t, w);
        }
    }
    if data.len() <= 256 {
        let _ = disassemble(data, Target::Gfx1013, WaveSize::Wave32, 0);
    }
});
