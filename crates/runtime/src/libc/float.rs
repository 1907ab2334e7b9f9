//! Exact conversion of binary floating-point values to decimal and hexadecimal digits,
//! for the printf family.
//!
//! Every finite binary value `m × 2^e` has a finite decimal expansion: `m << e` when
//! `e ≥ 0`, or `m × 5^-e × 10^e` when `e < 0`. We compute those digits exactly with a
//! small big-integer, then round the digit string half-to-even (the default IEEE rounding
//! mode, which glibc and FreeBSD apply to decimal output). Because the digits are exact,
//! one code path serves `double` and the x87 `long double` alike, with no precision loss
//! for `long double` (whose extreme values have several thousand digits; that costs a few
//! milliseconds, and only for such values).

use super::va_list::F80;

/// A value to format, split into what the conversions need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    /// `mantissa × 2^exp`, with the sign kept separately so that `-0.0` prints as `-0`.
    Finite {
        /// The sign bit.
        neg: bool,
        /// The integer significand (0 for zero).
        mantissa: u64,
        /// The binary exponent of the significand's unit bit.
        exp: i32,
    },
    /// An infinity.
    Inf {
        /// The sign bit.
        neg: bool,
    },
    /// A NaN (its payload is never printed).
    Nan {
        /// The sign bit.
        neg: bool,
    },
}

impl Float {
    /// Splits a `double`.
    pub fn from_f64(v: f64) -> Float {
        let bits = v.to_bits();
        let neg = bits >> 63 != 0;
        let biased = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1 << 52) - 1);
        match biased {
            0x7ff if frac == 0 => Float::Inf { neg },
            0x7ff => Float::Nan { neg },
            0 => Float::Finite {
                neg,
                mantissa: frac,
                exp: -1074,
            },
            _ => Float::Finite {
                neg,
                mantissa: frac | (1 << 52),
                exp: biased - 1075,
            },
        }
    }

    /// Splits an x87 `long double`.
    pub fn from_f80(v: F80) -> Float {
        let neg = v.sign_exp & 0x8000 != 0;
        let biased = (v.sign_exp & 0x7fff) as i32;
        if biased == 0x7fff {
            // Only the pattern with the integer bit set and a zero fraction is an infinity;
            // everything else here (NaNs, pseudo-infinities, pseudo-NaNs) the x87 treats as
            // NaN.
            return if v.mantissa == 1 << 63 {
                Float::Inf { neg }
            } else {
                Float::Nan { neg }
            };
        }
        // Denormals (biased exponent 0) use the exponent of the smallest normal. The
        // significand carries its integer bit explicitly, so it is used as it stands.
        let exp = biased.max(1) - 16383 - 63;
        Float::Finite {
            neg,
            mantissa: v.mantissa,
            exp,
        }
    }

    /// The sign bit.
    pub fn is_negative(&self) -> bool {
        match *self {
            Float::Finite { neg, .. } | Float::Inf { neg } | Float::Nan { neg } => neg,
        }
    }
}

/// A little-endian big unsigned integer in 32-bit limbs, just big enough for our needs.
struct BigUint(Vec<u32>);

impl BigUint {
    fn from_u64(v: u64) -> BigUint {
        BigUint(vec![v as u32, (v >> 32) as u32])
    }

    fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let t = *limb as u64 * k as u64 + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow5(&mut self, mut k: u32) {
        // 5^13 is the largest power of five below 2^32.
        const P13: u32 = 1_220_703_125;
        while k >= 13 {
            self.mul_small(P13);
            k -= 13;
        }
        if k > 0 {
            self.mul_small(5u32.pow(k));
        }
    }

    fn shl(&mut self, bits: u32) {
        let words = (bits / 32) as usize;
        let bits = bits % 32;
        if bits != 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let next = *limb >> (32 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, words));
    }

    /// Decimal digits (values 0–9), most significant first; empty for zero.
    fn into_decimal(mut self) -> Vec<u8> {
        const CHUNK: u64 = 1_000_000_000;
        let mut chunks = Vec::new();
        while let Some(&0) = self.0.last() {
            self.0.pop();
        }
        while !self.0.is_empty() {
            let mut rem = 0u64;
            for limb in self.0.iter_mut().rev() {
                let cur = (rem << 32) | *limb as u64;
                *limb = (cur / CHUNK) as u32;
                rem = cur % CHUNK;
            }
            chunks.push(rem as u32);
            while let Some(&0) = self.0.last() {
                self.0.pop();
            }
        }
        let mut digits = Vec::with_capacity(chunks.len() * 9);
        for (i, chunk) in chunks.iter().rev().enumerate() {
            let mut buf = [0u8; 9];
            let mut c = *chunk;
            for d in buf.iter_mut().rev() {
                *d = (c % 10) as u8;
                c /= 10;
            }
            if i == 0 {
                // The leading chunk has no leading zeros.
                let first = buf.iter().position(|&d| d != 0).unwrap_or(8);
                digits.extend_from_slice(&buf[first..]);
            } else {
                digits.extend_from_slice(&buf);
            }
        }
        digits
    }
}

/// The exact decimal form of a non-negative finite value: `digits × 10^exp10`, with
/// digits 0–9, most significant first, no leading or trailing zeros (empty for zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    /// The significant digits.
    pub digits: Vec<u8>,
    /// The power of ten of the last digit.
    pub exp10: i32,
}

impl Decimal {
    /// Converts `mantissa × 2^exp` exactly.
    pub fn exact(mantissa: u64, exp: i32) -> Decimal {
        if mantissa == 0 {
            return Decimal {
                digits: Vec::new(),
                exp10: 0,
            };
        }
        // Strip factors of two first: they only make the big integer larger.
        let tz = mantissa.trailing_zeros();
        let (m, e) = (mantissa >> tz, exp + tz as i32);
        let mut n = BigUint::from_u64(m);
        let mut exp10 = 0;
        if e >= 0 {
            n.shl(e as u32);
        } else {
            // m × 2^e = m × 5^-e × 10^e.
            n.mul_pow5(e.unsigned_abs());
            exp10 = e;
        }
        let mut digits = n.into_decimal();
        while digits.last() == Some(&0) {
            digits.pop();
            exp10 += 1;
        }
        Decimal { digits, exp10 }
    }

    /// The power of ten of the first digit (0 for zero).
    pub fn leading_exp(&self) -> i32 {
        if self.digits.is_empty() {
            0
        } else {
            self.digits.len() as i32 - 1 + self.exp10
        }
    }
}

/// Keeps the first `keep` digits of `digits` (which may be fewer than asked, or none),
/// rounding half to even on what is dropped. Returns the kept digits, which may have
/// grown one digit longer by a carry out of the top ("999" → "1000").
fn round_digits(digits: &[u8], keep: isize) -> Vec<u8> {
    if keep >= digits.len() as isize {
        return digits.to_vec();
    }
    if keep < 0 {
        // Even the first dropped position is a leading zero: under half a unit.
        return Vec::new();
    }
    let keep = keep as usize;
    let mut kept = digits[..keep].to_vec();
    let first = digits[keep];
    let rest_nonzero = digits[keep + 1..].iter().any(|&d| d != 0);
    let last_odd = kept.last().is_some_and(|&d| d % 2 == 1);
    let up = first > 5 || (first == 5 && (rest_nonzero || last_odd));
    if up {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, 1);
                break;
            }
            i -= 1;
            if kept[i] == 9 {
                kept[i] = 0;
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    kept
}

/// `round(value × 10^precision)` as decimal digits, for `%f`: the result is the integer
/// part's digits followed by `precision` fractional digits, left-padded with zeros so that
/// there is at least one integer digit.
pub fn fixed_digits(d: &Decimal, precision: usize) -> Vec<u8> {
    // value × 10^p = digits × 10^(exp10 + p); when exp10 + p < 0, that many digits drop.
    let shift = d.exp10 as i64 + precision as i64;
    let mut out = if shift >= 0 {
        let mut v = d.digits.clone();
        if !v.is_empty() {
            v.resize(v.len() + shift as usize, 0);
        }
        v
    } else {
        let keep = d.digits.len() as i64 + shift;
        round_digits(&d.digits, keep.max(-1) as isize)
    };
    if out.len() < precision + 1 {
        let pad = precision + 1 - out.len();
        out.splice(0..0, std::iter::repeat_n(0, pad));
    }
    out
}

/// The first `count` (≥ 1) significant digits, rounded, and the power of ten of the
/// first, for `%e`: "d.ddd" × 10^exp. Zero gives zeros and exponent 0.
pub fn scientific_digits(d: &Decimal, count: usize) -> (Vec<u8>, i32) {
    if d.digits.is_empty() {
        return (vec![0; count], 0);
    }
    let mut exp = d.leading_exp();
    let mut out = round_digits(&d.digits, count as isize);
    if out.len() > count {
        // A carry out of the top: 9.99 → 10.0; the dropped last digit is a zero.
        out.truncate(count);
        exp += 1;
    }
    out.resize(count, 0);
    (out, exp)
}

/// The parts of a `%a` rendering: the leading hex digit (0, 1, or 2 after a rounding
/// carry), the fraction digits (values 0–15), and the binary exponent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexParts {
    /// The digit before the point.
    pub lead: u8,
    /// The digits after the point.
    pub frac: Vec<u8>,
    /// The power of two.
    pub exp: i32,
}

/// Hex digits of a finite value. `frac_bits` (a multiple of 4) fraction bits follow the
/// leading digit. `precision` None keeps all digits but trims trailing zeros; Some(p)
/// rounds half to even to exactly p digits.
fn hex_parts(
    lead: u8,
    frac: u64,
    frac_digits: u32,
    exp: i32,
    precision: Option<usize>,
) -> HexParts {
    let mut digits: Vec<u8> = (0..frac_digits)
        .map(|i| ((frac >> (4 * (frac_digits - 1 - i))) & 0xf) as u8)
        .collect();
    let mut lead = lead;
    match precision {
        None => {
            while digits.last() == Some(&0) {
                digits.pop();
            }
        }
        Some(p) if p >= digits.len() => digits.resize(p, 0),
        Some(p) => {
            let first = digits[p];
            let rest_nonzero = digits[p + 1..].iter().any(|&d| d != 0);
            let last = if p == 0 { lead } else { digits[p - 1] };
            digits.truncate(p);
            if first > 8 || (first == 8 && (rest_nonzero || last % 2 == 1)) {
                let mut i = p;
                loop {
                    if i == 0 {
                        lead += 1;
                        break;
                    }
                    i -= 1;
                    if digits[i] == 15 {
                        digits[i] = 0;
                    } else {
                        digits[i] += 1;
                        break;
                    }
                }
            }
        }
    }
    HexParts {
        lead,
        frac: digits,
        exp,
    }
}

/// `%a` parts of a `double` in glibc's style: normals as `1.xxx` with 13 fraction digits
/// before trimming, subnormals unnormalized as `0.xxx` with exponent −1022, zero `0p+0`.
pub fn hex_f64(v: f64, precision: Option<usize>) -> HexParts {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    if biased == 0 {
        let exp = if frac == 0 { 0 } else { -1022 };
        hex_parts(0, frac, 13, exp, precision)
    } else {
        hex_parts(1, frac, 13, biased - 1023, precision)
    }
}

/// `%La` parts of an x87 `long double`, normalized to a leading `1` (denormals too), with
/// the 63 fraction bits shown as 16 hex digits before trimming; zero is `0p+0`.
pub fn hex_f80(mantissa: u64, exp: i32, precision: Option<usize>) -> HexParts {
    if mantissa == 0 {
        return hex_parts(0, 0, 16, 0, precision);
    }
    let shift = mantissa.leading_zeros();
    let m = mantissa << shift;
    // The value is m × 2^(exp − shift); its leading bit is worth 2^(exp − shift + 63).
    hex_parts(1, m << 1, 16, exp - shift as i32 + 63, precision)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(v: f64) -> Decimal {
        match Float::from_f64(v) {
            Float::Finite { mantissa, exp, .. } => Decimal::exact(mantissa, exp),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn exact_digits() {
        assert_eq!(
            dec(0.5),
            Decimal {
                digits: vec![5],
                exp10: -1
            }
        );
        assert_eq!(
            dec(1200.0),
            Decimal {
                digits: vec![1, 2],
                exp10: 2
            }
        );
        assert_eq!(dec(0.1).digits.len(), 55);
        assert_eq!(dec(f64::from_bits(1)).digits.len(), 751);
    }

    #[test]
    fn rounding_half_even() {
        assert_eq!(fixed_digits(&dec(0.5), 0), vec![0]);
        assert_eq!(fixed_digits(&dec(1.5), 0), vec![2]);
        assert_eq!(fixed_digits(&dec(2.5), 0), vec![2]);
        assert_eq!(fixed_digits(&dec(9.96), 1), vec![1, 0, 0]);
        assert_eq!(fixed_digits(&dec(0.001), 1), vec![0, 0]);
        assert_eq!(scientific_digits(&dec(9.96), 2), (vec![1, 0], 1));
        assert_eq!(scientific_digits(&dec(0.0), 3), (vec![0, 0, 0], 0));
    }

    #[test]
    fn long_double_extremes() {
        // LDBL_MAX has 4933 integer digits; the smallest denormal about 11,500.
        let max = Decimal::exact(u64::MAX, 16383 - 63);
        assert_eq!(max.leading_exp(), 4932);
        let (d, e) = scientific_digits(&max, 7);
        assert_eq!((d, e), (vec![1, 1, 8, 9, 7, 3, 1], 4932));
        let tiny = Decimal::exact(1, 1 - 16383 - 63);
        assert_eq!(scientific_digits(&tiny, 4), (vec![3, 6, 4, 5], -4951));
    }

    #[test]
    fn hex() {
        let h = hex_f64(3.0, None);
        assert_eq!((h.lead, h.frac, h.exp), (1, vec![8], 1));
        let h = hex_f64(1.5, Some(0));
        assert_eq!((h.lead, h.frac.len(), h.exp), (2, 0, 0));
        let h = hex_f80(1 << 63, -63, None);
        assert_eq!((h.lead, h.frac.len(), h.exp), (1, 0, 0));
        let h = hex_f80(3 << 62, -62, None);
        assert_eq!((h.lead, h.frac, h.exp), (1, vec![8], 1));
    }
}
