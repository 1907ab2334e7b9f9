//! The printf formatting engine, shared by every member of the family.
//!
//! A format is handled in three passes: parse it into literal runs and conversion specs,
//! numbering every argument a spec consumes (sequentially, or by `%n$` / `*m$`); fetch
//! the arguments in argument order, each by the class its spec needs (INTEGER, double,
//! `long double`), which is the only correct way to read a `va_list` when positional
//! specs name arguments out of order; then render.
//!
//! Behaviour follows the console's FreeBSD-derived libc where the two differ from glibc,
//! and glibc elsewhere (the tests compare with the host glibc):
//! * `%p` of NULL prints `0x0` (glibc: `(nil)`); `%p` ignores the `+` and space flags
//!   (glibc honours them).
//! * `%s` of NULL prints `(null)`, cut by the precision like any string: `%.3s` gives
//!   `(nu` (glibc prints nothing when the precision is under 6).
//! * The `0` flag pads `%s` and `%c` with zeros, as it pads numbers (glibc pads them with
//!   spaces); C leaves this undefined.
//! * `%D`, `%O`, `%U` are the old BSD spellings of `%ld`, `%lo`, `%lu`.
//! * The `'` flag groups nothing: the console runs in the "C" locale, whose thousands
//!   separator is empty.
//! * `%La` prints a normalized leading `1` (`0x1.8p+1`); glibc's x87 style is `0xcp-2`.
//! * Wide characters (`%lc`, `%ls`, `%C`, `%S`) are 16-bit UTF-16 units (the PS5's
//!   `wchar_t`), converted to UTF-8; a lone surrogate fails with `EILSEQ`.
//! * `%lc`/`%C` take a `wint_t` and use its low 16 bits (a guest `wchar_t`).
//! * An unknown conversion (including glibc's `%m`) is copied to the output as written.
//!
//! Where we keep glibc's behaviour without having checked the console's: NaN keeps its
//! sign (`-nan`); `%a` of a `double` subnormal is unnormalized (`0x0.0000000000001p-1022`),
//! and `%.0a` of 1.5 carries into the leading digit (`0x2p+0`). One glibc 2.36 bug is not
//! reproduced: `%#g` of 999999.5 is `1.00000e+06` here, as C requires (glibc: `1.e+06`).
//!
//! Floating-point output is exact for every precision, for `double` and `long double`
//! alike (see [`super::float`]), rounded half to even.

use super::float::{self, Decimal, Float};
use super::va_list::{VaReader, F80};

/// FreeBSD `EINVAL`.
pub const EINVAL: i32 = 22;
/// FreeBSD `ENOMEM`.
pub const ENOMEM: i32 = 12;
/// FreeBSD `EOVERFLOW`.
pub const EOVERFLOW: i32 = 84;
/// FreeBSD `EILSEQ`.
pub const EILSEQ: i32 = 86;

/// The most arguments a format may consume (positional indices beyond this are refused
/// rather than allocating a table for them).
pub const MAX_ARGS: usize = 1 << 16;

/// Why a format could not be rendered; the value is the guest `errno`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatError(pub i32);

/// One fetched argument.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg {
    /// Any INTEGER-class argument (integers of every width, pointers), as its 8-byte slot.
    Gp(u64),
    /// A `double`.
    F64(f64),
    /// A `long double`.
    Ld(F80),
}

/// Where arguments come from, one class at a time, in argument order.
pub trait ArgSource {
    /// The next INTEGER-class argument.
    fn gp(&mut self) -> u64;
    /// The next `double`.
    fn f64(&mut self) -> f64;
    /// The next `long double`.
    fn long_double(&mut self) -> F80;
}

impl ArgSource for VaReader {
    fn gp(&mut self) -> u64 {
        self.next_gp()
    }
    fn f64(&mut self) -> f64 {
        self.next_f64()
    }
    fn long_double(&mut self) -> F80 {
        self.next_long_double()
    }
}

/// Arguments from a slice, for callers holding concrete values (and tests). An argument
/// of the wrong class is reinterpreted; a missing one reads as zero.
pub struct SliceArgs<'a> {
    args: &'a [Arg],
    next: usize,
}

impl<'a> SliceArgs<'a> {
    /// Reads `args` from the first.
    pub fn new(args: &'a [Arg]) -> Self {
        SliceArgs { args, next: 0 }
    }

    fn take(&mut self) -> Option<Arg> {
        let a = self.args.get(self.next).copied();
        self.next += 1;
        a
    }
}

impl ArgSource for SliceArgs<'_> {
    fn gp(&mut self) -> u64 {
        match self.take() {
            Some(Arg::Gp(v)) => v,
            Some(Arg::F64(v)) => v.to_bits(),
            Some(Arg::Ld(v)) => v.mantissa,
            None => 0,
        }
    }
    fn f64(&mut self) -> f64 {
        match self.take() {
            Some(Arg::F64(v)) => v,
            Some(Arg::Gp(v)) => f64::from_bits(v),
            Some(Arg::Ld(_)) | None => 0.0,
        }
    }
    fn long_double(&mut self) -> F80 {
        match self.take() {
            Some(Arg::Ld(v)) => v,
            Some(Arg::F64(v)) => F80::from_f64(v),
            Some(Arg::Gp(_)) | None => F80::from_f64(0.0),
        }
    }
}

/// How an argument is fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Gp,
    F64,
    Ld,
}

/// A width or precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    Absent,
    Fixed(usize),
    Arg(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Len {
    Default,
    Hh,
    H,
    /// `l`, `ll`, `j`, `z`, `t`, `q`, and `L` on integers: all 64 bits on the LP64 PS5.
    Wide,
    /// `L` on floating conversions: `long double`.
    LongDouble,
    /// Plain `l` matters apart from `ll` only for `%lc` and `%ls`.
    Long,
}

#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    minus: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
}

#[derive(Debug, Clone, Copy)]
struct Spec {
    flags: Flags,
    width: Count,
    precision: Count,
    len: Len,
    conv: u8,
    /// The argument the conversion consumes (none for `%%`).
    arg: Option<usize>,
}

#[derive(Debug, Clone, Copy)]
enum Piece {
    /// Bytes copied as they stand.
    Lit(usize, usize),
    Spec(Spec),
}

struct Parsed {
    pieces: Vec<Piece>,
    classes: Vec<Option<Class>>,
}

/// Parses a run of decimal digits at `i`: (value, index after); None without digits.
fn digits(fmt: &[u8], mut i: usize) -> Result<Option<(usize, usize)>, FormatError> {
    let start = i;
    let mut v: usize = 0;
    while let Some(d) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
        v = v * 10 + (d - b'0') as usize;
        // A width or precision must fit an int; glibc and FreeBSD fail with EOVERFLOW.
        if v > i32::MAX as usize {
            return Err(FormatError(EOVERFLOW));
        }
        i += 1;
    }
    Ok((i > start).then_some((v, i)))
}

/// Parses `n$` (n ≥ 1) at `i`: (zero-based index, index after).
fn position(fmt: &[u8], i: usize) -> Result<Option<(usize, usize)>, FormatError> {
    match digits(fmt, i)? {
        Some((n, j)) if n > 0 && fmt.get(j) == Some(&b'$') => Ok(Some((n - 1, j + 1))),
        _ => Ok(None),
    }
}

fn note(classes: &mut Vec<Option<Class>>, index: usize, class: Class) -> Result<(), FormatError> {
    if index >= MAX_ARGS {
        return Err(FormatError(EINVAL));
    }
    if classes.len() <= index {
        classes.resize(index + 1, None);
    }
    // A conflict (the same position used as two types) is undefined; the first wins.
    classes[index].get_or_insert(class);
    Ok(())
}

fn parse(fmt: &[u8]) -> Result<Parsed, FormatError> {
    let mut pieces = Vec::new();
    let mut classes = Vec::new();
    let mut seq = 0usize;
    let mut i = 0;
    let mut lit_start = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        if lit_start < i {
            pieces.push(Piece::Lit(lit_start, i));
        }
        let start = i;
        i += 1;
        let mut spec_arg = None;
        if let Some((n, j)) = position(fmt, i)? {
            spec_arg = Some(n);
            i = j;
        }
        let mut flags = Flags::default();
        while let Some(&c) = fmt.get(i) {
            match c {
                b'-' => flags.minus = true,
                b'+' => flags.plus = true,
                b' ' => flags.space = true,
                b'#' => flags.alt = true,
                b'0' => flags.zero = true,
                // Grouping: nothing to group with in the "C" locale.
                b'\'' => {}
                _ => break,
            }
            i += 1;
        }
        // A `*` takes an int argument: the next in sequence, or `*m$`.
        let mut star = |i: &mut usize, seq: &mut usize| -> Result<Count, FormatError> {
            let index = match position(fmt, *i)? {
                Some((m, j)) => {
                    *i = j;
                    m
                }
                None => {
                    *seq += 1;
                    *seq - 1
                }
            };
            note(&mut classes, index, Class::Gp)?;
            Ok(Count::Arg(index))
        };
        let mut width = Count::Absent;
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            width = star(&mut i, &mut seq)?;
        } else if let Some((n, j)) = digits(fmt, i)? {
            width = Count::Fixed(n);
            i = j;
        }
        let mut precision = Count::Absent;
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                precision = star(&mut i, &mut seq)?;
            } else if let Some((n, j)) = digits(fmt, i)? {
                precision = Count::Fixed(n);
                i = j;
            } else {
                precision = Count::Fixed(0);
            }
        }
        let mut len = Len::Default;
        match fmt.get(i) {
            Some(b'h') if fmt.get(i + 1) == Some(&b'h') => (len, i) = (Len::Hh, i + 2),
            Some(b'h') => (len, i) = (Len::H, i + 1),
            Some(b'l') if fmt.get(i + 1) == Some(&b'l') => (len, i) = (Len::Wide, i + 2),
            Some(b'l') => (len, i) = (Len::Long, i + 1),
            Some(b'j' | b'z' | b't' | b'q') => (len, i) = (Len::Wide, i + 1),
            Some(b'L') => (len, i) = (Len::LongDouble, i + 1),
            _ => {}
        }
        let Some(&conv) = fmt.get(i) else {
            // A spec cut off by the end of the format is copied as written.
            lit_start = start;
            break;
        };
        i += 1;
        let class = match conv {
            b'%' => None,
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                Some(if len == Len::LongDouble {
                    Class::Ld
                } else {
                    Class::F64
                })
            }
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' | b's' | b'p' | b'n' | b'C' | b'S'
            | b'D' | b'O' | b'U' => Some(Class::Gp),
            _ => {
                // Unknown conversion: copy the spec as written, consuming nothing more.
                pieces.push(Piece::Lit(start, i));
                lit_start = i;
                continue;
            }
        };
        let arg = match class {
            None => None,
            Some(class) => {
                let index = spec_arg.unwrap_or_else(|| {
                    seq += 1;
                    seq - 1
                });
                note(&mut classes, index, class)?;
                Some(index)
            }
        };
        pieces.push(Piece::Spec(Spec {
            flags,
            width,
            precision,
            len,
            conv,
            arg,
        }));
        lit_start = i;
    }
    if lit_start < fmt.len() {
        pieces.push(Piece::Lit(lit_start, fmt.len()));
    }
    Ok(Parsed { pieces, classes })
}

/// Renders `fmt` with arguments from `src` and returns the bytes (no NUL).
///
/// Arguments are fetched in argument order before anything is rendered, so `src` is
/// advanced past exactly the arguments the format consumes.
///
/// # Safety
/// Every argument a `%s`, `%ls` or `%n` consumes must be null or valid for that use:
/// a NUL-terminated string (or at least `precision` readable bytes or units), or a
/// writable integer of the spec's width.
pub unsafe fn format(fmt: &[u8], src: &mut impl ArgSource) -> Result<Vec<u8>, FormatError> {
    let parsed = parse(fmt)?;
    let args: Vec<Arg> = parsed
        .classes
        .iter()
        .map(|c| match c.unwrap_or(Class::Gp) {
            // A gap in positional numbering is undefined; an int is the likeliest guess.
            Class::Gp => Arg::Gp(src.gp()),
            Class::F64 => Arg::F64(src.f64()),
            Class::Ld => Arg::Ld(src.long_double()),
        })
        .collect();
    let mut out = Vec::with_capacity(fmt.len() + 16);
    for piece in &parsed.pieces {
        match *piece {
            Piece::Lit(a, b) => out.extend_from_slice(&fmt[a..b]),
            // SAFETY: forwarded from this function's contract.
            Piece::Spec(spec) => unsafe { render(&mut out, &spec, &args)? },
        }
        if out.len() > i32::MAX as usize {
            return Err(FormatError(EOVERFLOW));
        }
    }
    Ok(out)
}

fn gp(args: &[Arg], index: usize) -> u64 {
    match args[index] {
        Arg::Gp(v) => v,
        Arg::F64(v) => v.to_bits(),
        Arg::Ld(v) => v.mantissa,
    }
}

/// Emits `head` and `body` padded to `width`: spaces on the left, zeros between head and
/// body (`zero_pad`), or spaces on the right (`left`).
fn emit(out: &mut Vec<u8>, width: usize, left: bool, zero_pad: bool, head: &[u8], body: &[u8]) {
    let pad = width.saturating_sub(head.len() + body.len());
    if left {
        out.extend_from_slice(head);
        out.extend_from_slice(body);
        out.resize(out.len() + pad, b' ');
    } else if zero_pad {
        out.extend_from_slice(head);
        out.resize(out.len() + pad, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + pad, b' ');
        out.extend_from_slice(head);
        out.extend_from_slice(body);
    }
}

fn to_radix(mut v: u64, radix: u64, upper: bool) -> Vec<u8> {
    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut buf = Vec::with_capacity(22);
    while v != 0 {
        buf.push(table[(v % radix) as usize]);
        v /= radix;
    }
    buf.reverse();
    buf
}

/// Encodes one UTF-16 code unit or pair's scalar value as UTF-8.
fn push_utf8(buf: &mut Vec<u8>, c: char) {
    let mut tmp = [0u8; 4];
    buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
}

/// # Safety
/// See [`format`].
unsafe fn render(out: &mut Vec<u8>, spec: &Spec, args: &[Arg]) -> Result<(), FormatError> {
    let mut flags = spec.flags;
    let width = match spec.width {
        Count::Absent => 0,
        Count::Fixed(n) => n,
        Count::Arg(k) => {
            let w = gp(args, k) as i32;
            // A negative `*` width is the `-` flag with its magnitude.
            if w < 0 {
                flags.minus = true;
            }
            w.unsigned_abs() as usize
        }
    };
    if width > i32::MAX as usize {
        return Err(FormatError(EOVERFLOW));
    }
    let precision = match spec.precision {
        Count::Absent => None,
        Count::Fixed(n) => Some(n),
        // A negative `*` precision is taken as if it were omitted.
        Count::Arg(k) => usize::try_from(gp(args, k) as i32).ok(),
    };
    // Refuse, before allocating it, output that cannot fit the int return value: the
    // width, and the precision of a numeric conversion, are lower bounds on its length
    // (except for `%g` without `#`, whose zeros are stripped and whose digit count is
    // bounded in `floating`).
    let numeric_floor = match spec.conv {
        b'g' | b'G' if !flags.alt => 0,
        b's' | b'S' | b'c' | b'C' | b'n' | b'%' => 0,
        _ => precision.unwrap_or(0),
    };
    if out.len().saturating_add(width.max(numeric_floor)) > i32::MAX as usize {
        return Err(FormatError(EOVERFLOW));
    }
    let arg = spec.arg.map(|k| args[k]);
    let raw = spec.arg.map_or(0, |k| gp(args, k));
    let left = flags.minus;
    match spec.conv {
        b'%' => out.push(b'%'),
        b'd' | b'i' | b'D' => {
            let len = if spec.conv == b'D' {
                Len::Wide
            } else {
                spec.len
            };
            let v: i64 = match len {
                Len::Hh => raw as i8 as i64,
                Len::H => raw as i16 as i64,
                Len::Default => raw as i32 as i64,
                _ => raw as i64,
            };
            let sign: &[u8] = if v < 0 {
                b"-"
            } else if flags.plus {
                b"+"
            } else if flags.space {
                b" "
            } else {
                b""
            };
            integer(
                out,
                &flags,
                width,
                precision,
                sign,
                b"",
                to_radix(v.unsigned_abs(), 10, false),
            );
        }
        b'u' | b'o' | b'x' | b'X' | b'O' | b'U' => {
            let len = if matches!(spec.conv, b'O' | b'U') {
                Len::Wide
            } else {
                spec.len
            };
            let v: u64 = match len {
                Len::Hh => raw as u8 as u64,
                Len::H => raw as u16 as u64,
                Len::Default => raw as u32 as u64,
                _ => raw,
            };
            let (radix, upper) = match spec.conv {
                b'o' | b'O' => (8, false),
                b'x' => (16, false),
                b'X' => (16, true),
                _ => (10, false),
            };
            let mut digits = to_radix(v, radix, upper);
            let prefix: &[u8] = match spec.conv {
                b'x' if flags.alt && v != 0 => b"0x",
                b'X' if flags.alt && v != 0 => b"0X",
                _ => b"",
            };
            if radix == 8 && flags.alt {
                // `#o` makes the first digit a zero, raising the precision if needed.
                let shown = digits.len().max(precision.unwrap_or(1));
                if shown == digits.len() {
                    digits.insert(0, b'0');
                }
            }
            integer(out, &flags, width, precision, b"", prefix, digits);
        }
        b'p' => {
            // FreeBSD: `%p` is `%#lx` whose prefix is printed for zero too, so NULL is `0x0`.
            let digits = to_radix(raw, 16, false);
            let unsigned = Flags {
                plus: false,
                space: false,
                ..flags
            };
            integer(out, &unsigned, width, precision, b"", b"0x", digits);
        }
        b'c' | b'C' => {
            let mut body = Vec::new();
            if spec.conv == b'C' || spec.len == Len::Long {
                // A wint_t holding a 16-bit guest wchar_t.
                let unit = raw as u16;
                let c = char::from_u32(unit as u32).ok_or(FormatError(EILSEQ))?;
                push_utf8(&mut body, c);
            } else {
                body.push(raw as u8);
            }
            emit(out, width, left, flags.zero, b"", &body);
        }
        b's' | b'S' => {
            let p = raw as *const u8;
            let wide = spec.conv == b'S' || spec.len == Len::Long;
            let body = if p.is_null() {
                let s = b"(null)";
                s[..precision.map_or(s.len(), |n| n.min(s.len()))].to_vec()
            } else if wide {
                // SAFETY: forwarded from `format`'s contract.
                unsafe { wide_string(p.cast(), precision)? }
            } else {
                let limit = precision.unwrap_or(usize::MAX);
                let mut n = 0;
                // SAFETY: the string is NUL-terminated or has `precision` readable bytes
                // (`format`'s contract); we stop at whichever comes first.
                while n < limit && unsafe { *p.add(n) } != 0 {
                    n += 1;
                }
                // SAFETY: the first `n` bytes were just read.
                unsafe { std::slice::from_raw_parts(p, n) }.to_vec()
            };
            emit(out, width, left, flags.zero, b"", &body);
        }
        b'n' => {
            let p = raw as *mut u8;
            let count = out.len() as i64;
            if !p.is_null() {
                // SAFETY: a non-null `%n` argument points at an integer of the spec's width
                // (`format`'s contract); unaligned writes tolerate a sloppy guest.
                unsafe {
                    match spec.len {
                        Len::Hh => p.cast::<i8>().write_unaligned(count as i8),
                        Len::H => p.cast::<i16>().write_unaligned(count as i16),
                        Len::Default => p.cast::<i32>().write_unaligned(count as i32),
                        _ => p.cast::<i64>().write_unaligned(count),
                    }
                }
            }
        }
        conv => {
            let value = match arg {
                Some(Arg::Ld(v)) => Float::from_f80(v),
                Some(Arg::F64(v)) => Float::from_f64(v),
                Some(Arg::Gp(v)) => Float::from_f64(f64::from_bits(v)),
                None => Float::from_f64(0.0),
            };
            let long_double = matches!(arg, Some(Arg::Ld(_)));
            floating(out, &flags, width, precision, conv, value, long_double);
        }
    }
    Ok(())
}

/// Emits an integer conversion: `sign`, `prefix`, precision zeros, `digits`.
fn integer(
    out: &mut Vec<u8>,
    flags: &Flags,
    width: usize,
    precision: Option<usize>,
    sign: &[u8],
    prefix: &[u8],
    mut digits: Vec<u8>,
) {
    // Zero has no digits of its own: the minimum count (1 by default) supplies them, so
    // a zero with precision 0 prints nothing (unless `#o` added its own "0").
    let min = precision.unwrap_or(1);
    if digits.len() < min {
        digits.splice(0..0, std::iter::repeat_n(b'0', min - digits.len()));
    }
    let mut head = sign.to_vec();
    head.extend_from_slice(prefix);
    // The `0` flag pads with zeros only when no precision is given.
    let zero_pad = flags.zero && precision.is_none();
    emit(out, width, flags.minus, zero_pad, &head, &digits);
}

fn ascii_digits(d: &[u8]) -> impl Iterator<Item = u8> + '_ {
    d.iter().map(|&x| b'0' + x)
}

/// Appends `e+05`-style exponent text: at least two digits.
fn push_exponent(buf: &mut Vec<u8>, marker: u8, exp: i32, min_digits: usize) {
    buf.push(marker);
    buf.push(if exp < 0 { b'-' } else { b'+' });
    let digits = to_radix(exp.unsigned_abs() as u64, 10, false);
    for _ in digits.len()..min_digits {
        buf.push(b'0');
    }
    buf.extend_from_slice(&digits);
}

/// `%f` text: integer digits, point, `precision` fraction digits.
fn fixed_text(d: &Decimal, precision: usize, alt: bool) -> (Vec<u8>, Vec<u8>, bool) {
    let digits = float::fixed_digits(d, precision);
    let split = digits.len() - precision;
    let int: Vec<u8> = ascii_digits(&digits[..split]).collect();
    let frac: Vec<u8> = ascii_digits(&digits[split..]).collect();
    (int, frac, precision > 0 || alt)
}

fn floating(
    out: &mut Vec<u8>,
    flags: &Flags,
    width: usize,
    precision: Option<usize>,
    conv: u8,
    value: Float,
    long_double: bool,
) {
    let upper = conv.is_ascii_uppercase();
    let mut head: Vec<u8> = if value.is_negative() {
        b"-".to_vec()
    } else if flags.plus {
        b"+".to_vec()
    } else if flags.space {
        b" ".to_vec()
    } else {
        Vec::new()
    };
    let (mantissa, exp) = match value {
        Float::Finite { mantissa, exp, .. } => (mantissa, exp),
        Float::Inf { .. } | Float::Nan { .. } => {
            let word: &[u8] = match (matches!(value, Float::Inf { .. }), upper) {
                (true, false) => b"inf",
                (true, true) => b"INF",
                (false, false) => b"nan",
                (false, true) => b"NAN",
            };
            // Never zero-padded: "  inf", not "00inf".
            emit(out, width, flags.minus, false, &head, word);
            return;
        }
    };
    let mut body = Vec::new();
    match conv.to_ascii_lowercase() {
        b'a' => {
            let parts = if long_double {
                float::hex_f80(mantissa, exp, precision)
            } else {
                let bits = f64::from_bits(
                    // Rebuild the double from its parts (exact by construction).
                    f64_bits(mantissa, exp),
                );
                float::hex_f64(bits, precision)
            };
            head.extend_from_slice(if upper { b"0X" } else { b"0x" });
            let table: &[u8; 16] = if upper {
                b"0123456789ABCDEF"
            } else {
                b"0123456789abcdef"
            };
            body.push(table[parts.lead as usize]);
            if !parts.frac.is_empty() || flags.alt {
                body.push(b'.');
            }
            body.extend(parts.frac.iter().map(|&d| table[d as usize]));
            push_exponent(&mut body, if upper { b'P' } else { b'p' }, parts.exp, 1);
        }
        c => {
            let d = Decimal::exact(mantissa, exp);
            let marker = if upper { b'E' } else { b'e' };
            let (int, mut frac, mut point, exponent) = match c {
                b'f' => {
                    let (i, f, p) = fixed_text(&d, precision.unwrap_or(6), flags.alt);
                    (i, f, p, None)
                }
                b'e' => {
                    let p = precision.unwrap_or(6);
                    let (digits, x) = float::scientific_digits(&d, p + 1);
                    let int = vec![b'0' + digits[0]];
                    let frac: Vec<u8> = ascii_digits(&digits[1..]).collect();
                    (int, frac, p > 0 || flags.alt, Some(x))
                }
                _ => {
                    // %g: P significant digits; fixed style when −4 ≤ X < P.
                    let mut p = precision.unwrap_or(6).max(1);
                    if !flags.alt {
                        // Digits past the exact expansion are zeros that get stripped, so
                        // a huge precision can be cut to the digit count, as long as it
                        // stays above the exponent (which picks the style).
                        let exact = d.digits.len().max(d.leading_exp().max(0) as usize + 1);
                        p = p.min(exact);
                    }
                    let (digits, x) = float::scientific_digits(&d, p);
                    let parts = if x >= -4 && (x as i64) < p as i64 {
                        let (i, f, pt) =
                            fixed_text(&d, (p as i64 - 1 - x as i64) as usize, flags.alt);
                        (i, f, pt, None)
                    } else {
                        let int = vec![b'0' + digits[0]];
                        let frac: Vec<u8> = ascii_digits(&digits[1..]).collect();
                        (int, frac, p > 1 || flags.alt, Some(x))
                    };
                    parts
                }
            };
            if c == b'g' && !flags.alt {
                // %g drops trailing zeros, and the point with them, unless `#`.
                while frac.last() == Some(&b'0') {
                    frac.pop();
                }
                point = !frac.is_empty();
            }
            body.extend_from_slice(&int);
            if point {
                body.push(b'.');
            }
            body.extend_from_slice(&frac);
            if let Some(x) = exponent {
                push_exponent(&mut body, marker, x, 2);
            }
        }
    }
    let zero_pad = flags.zero && !flags.minus;
    emit(out, width, flags.minus, zero_pad, &head, &body);
}

/// The bits of the non-negative `double` `mantissa × 2^exp`, where the pair came from
/// [`Float::from_f64`] (so it is exactly representable).
fn f64_bits(mantissa: u64, exp: i32) -> u64 {
    if mantissa == 0 {
        0
    } else if mantissa < 1 << 52 {
        // Subnormal: exponent −1074, biased exponent field 0.
        mantissa
    } else {
        (((exp + 1075) as u64) << 52) | (mantissa & ((1 << 52) - 1))
    }
}

/// Converts a NUL-terminated guest UTF-16 string to UTF-8, stopping before the first
/// character that would take the output past `precision` bytes.
///
/// # Safety
/// `p` must point at 16-bit units, NUL-terminated or readable as far as the precision
/// lets the conversion go.
unsafe fn wide_string(p: *const u16, precision: Option<usize>) -> Result<Vec<u8>, FormatError> {
    let limit = precision.unwrap_or(usize::MAX);
    let mut body = Vec::new();
    let mut i = 0;
    loop {
        // SAFETY: per the contract, unit `i` is readable (we stop at NUL or the limit).
        let unit = unsafe { p.add(i).read_unaligned() };
        if unit == 0 {
            break;
        }
        i += 1;
        let c = if (0xd800..0xdc00).contains(&unit) {
            // SAFETY: a high surrogate is followed by at least one more unit (its pair or
            // the NUL).
            let low = unsafe { p.add(i).read_unaligned() };
            if !(0xdc00..0xe000).contains(&low) {
                return Err(FormatError(EILSEQ));
            }
            i += 1;
            let scalar = 0x10000 + (((unit as u32) - 0xd800) << 10) + (low as u32 - 0xdc00);
            char::from_u32(scalar).ok_or(FormatError(EILSEQ))?
        } else {
            char::from_u32(unit as u32).ok_or(FormatError(EILSEQ))?
        };
        if body.len() + c.len_utf8() > limit {
            break;
        }
        push_utf8(&mut body, c);
    }
    Ok(body)
}
