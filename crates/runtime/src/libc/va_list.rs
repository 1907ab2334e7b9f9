//! The guest's SysV x86-64 `va_list`, and `va_arg` over it.
//!
//! A guest `va_list` is an array of one [`VaList`] struct, so a `vprintf(fmt, ap)` call
//! hands us a pointer to the guest's own struct. Reading an argument advances that struct
//! in place, exactly as the guest's `va_arg` would, so a guest that (legally) inspects
//! nothing after the call, or (illegally but commonly) keeps using `ap`, sees what a C
//! library would leave there.
//!
//! Where each argument class lives (SysV psABI §3.5.7):
//! * INTEGER (integers of any width up to 64 bits, pointers): the next of the six
//!   general-purpose register slots of the register save area while `gp_offset < 48`,
//!   then 8-byte slots of the overflow (stack) area.
//! * SSE (`double`; `float` is promoted to `double` by the caller): the next of the eight
//!   16-byte XMM slots (from offset 48 to 176) while `fp_offset < 176`, then 8-byte slots
//!   of the overflow area.
//! * X87 (`long double`): never in registers; a 16-byte slot of the overflow area, first
//!   aligned to 16 bytes.

/// The SysV x86-64 `va_list` element (`__va_list_tag`), laid out as the guest's compiler
/// lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VaList {
    /// Offset into `reg_save_area` of the next general-purpose register slot (0..=48).
    pub gp_offset: u32,
    /// Offset into `reg_save_area` of the next XMM register slot (48..=176).
    pub fp_offset: u32,
    /// The next argument passed on the stack.
    pub overflow_arg_area: *mut u8,
    /// The callee's spill of rdi, rsi, rdx, rcx, r8, r9 (48 bytes), then xmm0–xmm7 (128).
    pub reg_save_area: *mut u8,
}

const _: () = {
    assert!(std::mem::size_of::<VaList>() == 24);
    assert!(std::mem::align_of::<VaList>() == 8);
    assert!(std::mem::offset_of!(VaList, gp_offset) == 0);
    assert!(std::mem::offset_of!(VaList, fp_offset) == 4);
    assert!(std::mem::offset_of!(VaList, overflow_arg_area) == 8);
    assert!(std::mem::offset_of!(VaList, reg_save_area) == 16);
};

/// End of the general-purpose part of the register save area (6 registers × 8 bytes).
pub const GP_END: u32 = 48;
/// End of the XMM part of the register save area (48 + 8 registers × 16 bytes).
pub const FP_END: u32 = 176;
/// Size of a full register save area.
pub const REG_SAVE_SIZE: usize = FP_END as usize;

/// An x87 80-bit extended-precision value, as a `long double` is stored in memory: a
/// 64-bit significand with an explicit integer bit, then sign and a 15-bit biased
/// exponent. Rust has no `f80`, so the formatter works on these fields directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct F80 {
    /// The significand; bit 63 is the explicit integer bit.
    pub mantissa: u64,
    /// Bit 15 is the sign; bits 0–14 the exponent, biased by 16383.
    pub sign_exp: u16,
}

impl F80 {
    /// Decodes the 10 meaningful bytes of an x87 value in memory (little-endian).
    pub fn from_bytes(bytes: [u8; 10]) -> F80 {
        let mut m = [0u8; 8];
        m.copy_from_slice(&bytes[..8]);
        F80 {
            mantissa: u64::from_le_bytes(m),
            sign_exp: u16::from_le_bytes([bytes[8], bytes[9]]),
        }
    }

    /// The exact `long double` value of an `f64` (every `f64` is representable).
    pub fn from_f64(v: f64) -> F80 {
        let bits = v.to_bits();
        let sign = ((bits >> 63) as u16) << 15;
        let exp = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1 << 52) - 1);
        if exp == 0x7ff {
            // Infinity keeps a bare integer bit; NaN keeps its payload (quiet bit included).
            return F80 {
                mantissa: (1 << 63) | (frac << 11),
                sign_exp: sign | 0x7fff,
            };
        }
        if exp == 0 {
            if frac == 0 {
                return F80 {
                    mantissa: 0,
                    sign_exp: sign,
                };
            }
            // An f64 subnormal is a normal long double: normalize the significand.
            let shift = frac.leading_zeros();
            let e = -1022 - (shift as i32 - 11);
            return F80 {
                mantissa: frac << shift,
                sign_exp: sign | (e + 16383) as u16,
            };
        }
        F80 {
            mantissa: (1 << 63) | (frac << 11),
            sign_exp: sign | (exp - 1023 + 16383) as u16,
        }
    }
}

/// Reads successive variadic arguments through a guest `va_list`, advancing it.
pub struct VaReader {
    list: *mut VaList,
}

impl VaReader {
    /// Wraps a guest `va_list`.
    ///
    /// # Safety
    /// `list` must point at a live, initialized `va_list` whose areas hold the arguments
    /// that will be read, and nothing else may use it while the reader lives.
    pub unsafe fn new(list: *mut VaList) -> VaReader {
        VaReader { list }
    }

    /// `va_arg(ap, T)` for any INTEGER-class `T` (all integers, pointers): the whole 8-byte
    /// slot; the caller truncates to the type's width.
    pub fn next_gp(&mut self) -> u64 {
        // SAFETY: `new`'s contract: the list is valid and the next INTEGER argument is in
        // the slot that gp_offset or overflow_arg_area names.
        unsafe {
            let l = &mut *self.list;
            if l.gp_offset < GP_END {
                let v = (l.reg_save_area.add(l.gp_offset as usize) as *const u64).read_unaligned();
                l.gp_offset += 8;
                v
            } else {
                let v = (l.overflow_arg_area as *const u64).read_unaligned();
                l.overflow_arg_area = l.overflow_arg_area.add(8);
                v
            }
        }
    }

    /// `va_arg(ap, double)`.
    pub fn next_f64(&mut self) -> f64 {
        // SAFETY: as for `next_gp`, for an SSE-class argument; an XMM slot's low 8 bytes
        // hold the double.
        unsafe {
            let l = &mut *self.list;
            let bits = if l.fp_offset < FP_END {
                let v = (l.reg_save_area.add(l.fp_offset as usize) as *const u64).read_unaligned();
                l.fp_offset += 16;
                v
            } else {
                let v = (l.overflow_arg_area as *const u64).read_unaligned();
                l.overflow_arg_area = l.overflow_arg_area.add(8);
                v
            };
            f64::from_bits(bits)
        }
    }

    /// `va_arg(ap, long double)`: always from the overflow area, 16-byte aligned, in a
    /// 16-byte slot of which the first 10 bytes are the x87 value.
    pub fn next_long_double(&mut self) -> F80 {
        // SAFETY: as for `next_gp`, for an X87-class argument, which the caller placed at
        // the next 16-byte boundary of the stack argument area.
        unsafe {
            let l = &mut *self.list;
            let addr = (l.overflow_arg_area as usize + 15) & !15;
            let p = addr as *const u8;
            let mut bytes = [0u8; 10];
            std::ptr::copy_nonoverlapping(p, bytes.as_mut_ptr(), 10);
            l.overflow_arg_area = p.add(16) as *mut u8;
            F80::from_bytes(bytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_registers_then_overflow() {
        let mut save = [0u8; REG_SAVE_SIZE];
        for i in 0..6u64 {
            save[i as usize * 8..][..8].copy_from_slice(&(100 + i).to_le_bytes());
        }
        for i in 0..8 {
            save[48 + i * 16..][..8].copy_from_slice(&(i as f64 + 0.5).to_bits().to_le_bytes());
        }
        // Overflow: int 7, double 9.5, then (after padding to 16) a long double 1.0.
        #[repr(C, align(16))]
        struct Stack([u8; 64]);
        let mut stack = Stack([0; 64]);
        stack.0[0..8].copy_from_slice(&7u64.to_le_bytes());
        stack.0[8..16].copy_from_slice(&9.5f64.to_bits().to_le_bytes());
        stack.0[16..24].copy_from_slice(&(1u64 << 63).to_le_bytes());
        stack.0[24..26].copy_from_slice(&16383u16.to_le_bytes());
        let mut list = VaList {
            gp_offset: 8,
            fp_offset: 48,
            overflow_arg_area: stack.0.as_mut_ptr(),
            reg_save_area: save.as_mut_ptr(),
        };
        // SAFETY: the areas above outlive the reader.
        let mut r = unsafe { VaReader::new(&mut list) };
        let gps: Vec<u64> = (0..5).map(|_| r.next_gp()).collect();
        assert_eq!(gps, [101, 102, 103, 104, 105]);
        for i in 0..8 {
            assert_eq!(r.next_f64(), i as f64 + 0.5);
        }
        assert_eq!(r.next_gp(), 7);
        assert_eq!(r.next_f64(), 9.5);
        assert_eq!(r.next_long_double(), F80::from_f64(1.0));
        assert_eq!(list.gp_offset, GP_END);
        assert_eq!(list.fp_offset, FP_END);
        assert_eq!(list.overflow_arg_area, stack.0[32..].as_mut_ptr());
    }

    #[test]
    fn f80_from_f64() {
        assert_eq!(
            F80::from_f64(1.0),
            F80 {
                mantissa: 1 << 63,
                sign_exp: 16383
            }
        );
        assert_eq!(
            F80::from_f64(-2.0),
            F80 {
                mantissa: 1 << 63,
                sign_exp: 0x8000 | 16384
            }
        );
        let tiny = F80::from_f64(f64::from_bits(1));
        assert_eq!(tiny.mantissa, 1 << 63);
        assert_eq!(tiny.sign_exp as i32 - 16383, -1074);
    }
}
