//! The raw system call scan.
//!
//! A title that issues `syscall`, `int 0x80`, `sysenter` or `sysret` itself would talk
//! to the host kernel with FreeBSD numbers, so the relinker refuses it. The scan is a
//! recursive descent from known code starts — the entry point, exported functions, the
//! init/fini functions and arrays, and every FDE in `.eh_frame_hdr` — following direct
//! branches and calls. Bytes that are only data (strings, jump tables, `.rodata` that
//! shares the code segment in console binaries) are never decoded, so they never cause
//! a false rejection.

use iced_x86::{Code, Decoder, DecoderOptions, FlowControl, Mnemonic};
use sce::elf::pf;
use sce::Image;
use std::collections::BTreeSet;

/// A raw system call instruction found in reachable code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSyscall {
    /// Virtual address (image-relative) of the instruction.
    pub address: u64,
    /// The instruction, as text.
    pub instruction: String,
    /// The nearest known code start at or before it, if any.
    pub nearest_start: Option<u64>,
}

/// Executable ranges of the image: (vaddr, file offset, length).
fn code_ranges(img: &Image) -> Vec<(u64, u64, u64)> {
    let file = img.elf.len() as u64;
    img.segments
        .iter()
        .filter(|s| s.is_loaded() && s.flags & pf::X != 0 && s.offset < file)
        // Only the bytes the file really has can be decoded.
        .map(|s| (s.vaddr, s.offset, s.filesz.min(file - s.offset)))
        .collect()
}

fn code_at<'a>(img: &'a Image, ranges: &[(u64, u64, u64)], va: u64) -> Option<&'a [u8]> {
    ranges.iter().find_map(|&(v, o, n)| {
        (va >= v && va - v < n).then(|| {
            let start = (o + (va - v)) as usize;
            let end = ((o + n) as usize).min(img.elf.len());
            img.elf.get(start..end).unwrap_or(&[])
        })
    })
}

/// True when the executable bytes hold a byte pair that begins a raw system call
/// (`0F 05` syscall, `0F 34` sysenter, `0F 07` sysret, `0F 35` sysexit, `CD 80`).
/// Without one, no decoding can find one, so the descent is skipped: same answer,
/// a fraction of the time.
fn has_candidate(img: &Image, ranges: &[(u64, u64, u64)]) -> bool {
    ranges.iter().any(|&(_, o, n)| {
        let end = ((o + n) as usize).min(img.elf.len());
        let code = img.elf.get(o as usize..end).unwrap_or(&[]);
        memchr::memchr2_iter(0x0f, 0xcd, code).any(|i| {
            matches!(
                (code[i], code.get(i + 1)),
                (0x0f, Some(0x05 | 0x34 | 0x07 | 0x35)) | (0xcd, Some(0x80))
            )
        })
    })
}

/// One bit per code byte: instruction starts already decoded.
struct Visited {
    ranges: Vec<(u64, u64, Vec<u64>)>,
}

impl Visited {
    fn new(ranges: &[(u64, u64, u64)]) -> Self {
        Visited {
            ranges: ranges
                .iter()
                .map(|&(v, _, n)| (v, n, vec![0u64; (n as usize).div_ceil(64)]))
                .collect(),
        }
    }

    /// Marks `va`; returns false if it was marked already (or is outside the code).
    fn insert(&mut self, va: u64) -> bool {
        for (v, n, bits) in &mut self.ranges {
            if va >= *v && va - *v < *n {
                let i = (va - *v) as usize;
                let (w, b) = (i / 64, 1u64 << (i % 64));
                let fresh = bits[w] & b == 0;
                bits[w] |= b;
                return fresh;
            }
        }
        false
    }
}

/// What a scan of reachable code found.
#[derive(Debug, Default)]
pub struct ScanResult {
    /// The first raw system call, if any.
    pub syscall: Option<RawSyscall>,
    /// Instructions decoded.
    pub decoded: usize,
    /// Addresses that reachable instructions read or write RIP-relatively (GOT slots
    /// among them), when asked for.
    pub rip_refs: BTreeSet<u64>,
}

/// Scans reachable code; returns the first raw system call, if any, and how many
/// instructions were decoded.
pub fn scan(img: &Image, starts: &BTreeSet<u64>) -> (Option<RawSyscall>, usize) {
    let r = scan_with(img, starts, false);
    (r.syscall, r.decoded)
}

/// Scans reachable code; with `collect_refs` it decodes everything reachable (no
/// shortcut) and records RIP-relative memory references for the unused-import filter.
pub fn scan_with(img: &Image, starts: &BTreeSet<u64>, collect_refs: bool) -> ScanResult {
    let mut result = ScanResult::default();
    let ranges = code_ranges(img);
    if !collect_refs && !has_candidate(img, &ranges) {
        return result;
    }
    let mut work: Vec<u64> = starts.iter().copied().collect();
    let mut seen = Visited::new(&ranges);
    while let Some(start) = work.pop() {
        let Some(bytes) = code_at(img, &ranges, start) else {
            continue;
        };
        let mut d = Decoder::with_ip(64, bytes, start, DecoderOptions::NONE);
        while d.can_decode() {
            let ins = d.decode();
            if ins.is_invalid() {
                break;
            }
            // Stop where an earlier path already decoded from this instruction on.
            if !seen.insert(ins.ip()) {
                break;
            }
            result.decoded += 1;
            if collect_refs && ins.is_ip_rel_memory_operand() {
                let target = ins.ip_rel_memory_address();
                result.rip_refs.insert(target);
                // Code whose address is taken (`lea reg, [rip + f]`) may be called.
                if ins.mnemonic() == Mnemonic::Lea {
                    work.push(target);
                }
            }
            let raw = matches!(
                ins.mnemonic(),
                Mnemonic::Syscall | Mnemonic::Sysenter | Mnemonic::Sysret | Mnemonic::Sysexit
            ) || (ins.code() == Code::Int_imm8 && ins.immediate8() == 0x80);
            if raw && result.syscall.is_none() {
                let nearest_start = starts.range(..=ins.ip()).next_back().copied();
                result.syscall = Some(RawSyscall {
                    address: ins.ip(),
                    instruction: format!("{ins}"),
                    nearest_start,
                });
                if !collect_refs {
                    return result;
                }
            }
            match ins.flow_control() {
                FlowControl::Next | FlowControl::IndirectCall | FlowControl::Interrupt => {}
                FlowControl::Call | FlowControl::ConditionalBranch => {
                    work.push(ins.near_branch_target());
                }
                FlowControl::UnconditionalBranch => {
                    work.push(ins.near_branch_target());
                    break;
                }
                FlowControl::IndirectBranch | FlowControl::Return | FlowControl::Exception => break,
                FlowControl::XbeginXabortXend => {}
            }
        }
    }
    result
}

/// Reads an `.eh_frame_hdr` search table and returns the FDEs' initial locations.
pub fn eh_frame_starts(img: &Image) -> Vec<u64> {
    let Some(seg) = img.segment(sce::elf::pt::GNU_EH_FRAME) else {
        return Vec::new();
    };
    let Some(hdr) = img
        .elf
        .get(seg.offset as usize..seg.offset.saturating_add(seg.filesz) as usize)
    else {
        return Vec::new();
    };
    if hdr.len() < 4 || hdr[0] != 1 {
        return Vec::new();
    }
    let (ptr_enc, count_enc, table_enc) = (hdr[1], hdr[2], hdr[3]);
    let base = seg.vaddr;
    let mut pos = 4usize;
    let Some(_) = read_encoded(hdr, &mut pos, ptr_enc, base) else {
        return Vec::new();
    };
    let Some(count) = read_encoded(hdr, &mut pos, count_enc, base) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for _ in 0..count.min(1 << 20) {
        let (Some(loc), Some(_)) = (
            read_encoded(hdr, &mut pos, table_enc, base),
            read_encoded(hdr, &mut pos, table_enc, base),
        ) else {
            break;
        };
        out.push(loc);
    }
    out
}

/// Decodes one DWARF pointer-encoded value at `hdr[*pos]`; `base` is the vaddr of `hdr`.
fn read_encoded(hdr: &[u8], pos: &mut usize, enc: u8, base: u64) -> Option<u64> {
    if enc == 0xff {
        return None;
    }
    let at = *pos;
    let (raw, len): (i64, usize) = match enc & 0x0f {
        0x01 => (read_uleb(hdr, pos)? as i64, 0),
        0x02 => (
            u16::from_le_bytes(hdr.get(at..at + 2)?.try_into().ok()?) as i64,
            2,
        ),
        0x03 => (
            u32::from_le_bytes(hdr.get(at..at + 4)?.try_into().ok()?) as i64,
            4,
        ),
        0x04 | 0x0c | 0x00 => (i64::from_le_bytes(hdr.get(at..at + 8)?.try_into().ok()?), 8),
        0x0a => (
            i16::from_le_bytes(hdr.get(at..at + 2)?.try_into().ok()?) as i64,
            2,
        ),
        0x0b => (
            i32::from_le_bytes(hdr.get(at..at + 4)?.try_into().ok()?) as i64,
            4,
        ),
        _ => return None,
    };
    *pos += len;
    let applied = match enc & 0x70 {
        0x00 => raw,
        0x10 => (base.wrapping_add(at as u64) as i64).wrapping_add(raw),
        0x30 => (base as i64).wrapping_add(raw),
        _ => return None,
    };
    Some(applied as u64)
}

fn read_uleb(b: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let byte = *b.get(*pos)?;
        *pos += 1;
        v |= ((byte & 0x7f) as u64) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}
