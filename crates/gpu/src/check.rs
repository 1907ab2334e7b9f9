//! `shader check`: run a compute shader's reference SPIR-V and its recompiled RDNA code
//! on the same inputs, and compare every buffer.
//!
//! # Test convention
//!
//! A `.comp` file describes its test in header comments:
//!
//! ```text
//! // native5-test: groups=16,1,1 wave=32
//! // buffer 0: 4096 bytes random seed=7
//! // buffer 1: 4096 bytes zero compare=exact
//! // buffer 2: 1024 bytes f32 range=-100,100 seed=3 compare=f32ulp:4
//! // push: u32 7, f32 1.5
//! ```
//!
//! - `native5-test:` `groups=X,Y,Z` is the dispatch; `wave=32` compiles with
//!   `RADV_PERFTEST=cswave32` (default wave64, as RADV does).
//! - `buffer N: SIZE bytes GEN [seed=S] [range=LO,HI] [compare=C]`: storage buffer N at
//!   set 0, binding N. `GEN` is `zero`, `random` (bytes), `index` (u32 dword index),
//!   or a typed generator `u32`, `i32`, `f32`, `f16` drawing uniformly from `range`
//!   (inclusive for integers; floats are finite and normal, so a test is never fed NaNs or
//!   denormals by accident). `C` is `exact` (default), `f32ulp:N` (each dword as an f32,
//!   at most N units in the last place apart, NaN equal to NaN), `f32abs:E` (each dword
//!   as an f32, at most E apart), `f16ulp:N` (each 16-bit half as an f16) or `ignore`.
//! - `push: T V, ...`: the push-constant block, in order (`u32`, `i32`, `f32`).
//!
//! # Flow
//!
//! The RDNA code comes from the committed corpus entry beside the `.comp` (`NAME.bin`,
//! `NAME.json`) when it was compiled from the same source, else from RADV
//! ([`crate::oracle`]). The recompiled module reads its buffers through V# descriptors
//! placed in a synthetic guest memory the way RADV lays them out: descriptor set 0 at
//! [`SET0_ADDR`] (the user SGPR holds its low half; the code adds the `0xffff8000` high
//! half itself), one 16-byte V# per binding, each pointing at a distinct guest buffer
//! address.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};

use crate::device::Device;
use crate::oracle::{self, Layout, Role};

/// Where descriptor set 0 lives in the synthetic guest memory.
pub const SET0_ADDR: u64 = 0xffff_8000_0001_0000;
/// Guest address of buffer `n` is `BUFFER_BASE + n * BUFFER_STRIDE`.
pub const BUFFER_BASE: u64 = 0x0000_0001_0000_0000;
/// Spacing of guest buffers.
pub const BUFFER_STRIDE: u64 = 0x1000_0000;
/// RADV's size of one storage-buffer descriptor in a set.
pub const VSHARP_BYTES: u64 = 16;

/// How a buffer is filled.
#[derive(Debug, Clone, PartialEq)]
pub enum Gen {
    /// All zero.
    Zero,
    /// Random bytes.
    Random,
    /// Dword `i` holds `i`.
    Index,
    /// u32 in `[lo, hi]`.
    U32(u32, u32),
    /// i32 in `[lo, hi]`.
    I32(i32, i32),
    /// Finite, normal f32 in `[lo, hi]`.
    F32(f32, f32),
    /// Finite, normal f16 in `[lo, hi]`, two per dword.
    F16(f32, f32),
}

/// How a buffer is compared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Compare {
    /// Byte for byte.
    Exact,
    /// As f32s, within N ULPs.
    F32Ulp(u32),
    /// As pairs of f16s, each within N ULPs (for f16 code a compiler may contract).
    F16Ulp(u32),
    /// As f32s, within an absolute difference (for functions whose error is
    /// absolute near zero, like `sin`).
    F32Abs(f32),
    /// Not compared.
    Ignore,
}

/// One buffer of a test.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferSpec {
    /// Binding number.
    pub binding: u32,
    /// Size in bytes.
    pub size: usize,
    /// Generator.
    pub gen: Gen,
    /// Seed.
    pub seed: u64,
    /// Comparison.
    pub compare: Compare,
}

/// A parsed test header.
#[derive(Debug, Clone, PartialEq)]
pub struct TestSpec {
    /// Dispatch size.
    pub groups: [u32; 3],
    /// Compile for wave32 instead of wave64.
    pub wave32: bool,
    /// Buffers by binding (0..N).
    pub buffers: Vec<BufferSpec>,
    /// Push-constant bytes.
    pub push: Vec<u8>,
}

/// Parses the `// native5-test:` header of a `.comp` source.
pub fn parse_spec(src: &str) -> Result<TestSpec> {
    let mut spec = TestSpec {
        groups: [1, 1, 1],
        wave32: false,
        buffers: Vec::new(),
        push: Vec::new(),
    };
    let mut seen = false;
    for (n, line) in src.lines().enumerate() {
        let Some(c) = line.trim().strip_prefix("//") else {
            continue;
        };
        let c = c.trim();
        let bad = |what: &str| anyhow!("line {}: {what}: `{line}`", n + 1);
        if let Some(r) = c.strip_prefix("native5-test:") {
            seen = true;
            for kv in r.split_whitespace() {
                match kv.split_once('=') {
                    Some(("groups", v)) => {
                        let g: Vec<u32> = v
                            .split(',')
                            .map(|x| x.parse())
                            .collect::<Result<_, _>>()
                            .map_err(|_| bad("groups"))?;
                        if g.len() != 3 {
                            return Err(bad("groups needs X,Y,Z"));
                        }
                        spec.groups = [g[0], g[1], g[2]];
                    }
                    Some(("wave", "32")) => spec.wave32 = true,
                    Some(("wave", "64")) => spec.wave32 = false,
                    _ => return Err(bad("unknown native5-test key")),
                }
            }
        } else if let Some(r) = c.strip_prefix("buffer ") {
            let (num, rest) = r.split_once(':').ok_or_else(|| bad("buffer N:"))?;
            let binding: u32 = num.trim().parse().map_err(|_| bad("buffer number"))?;
            let mut it = rest.split_whitespace();
            let size: usize = it
                .next()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| bad("buffer size"))?;
            if it.next() != Some("bytes") {
                return Err(bad("expected `bytes`"));
            }
            let kind = it.next().ok_or_else(|| bad("generator"))?;
            let mut seed = binding as u64 + 1;
            let mut range: Option<(String, String)> = None;
            let mut compare = Compare::Exact;
            for kv in it {
                match kv.split_once('=') {
                    Some(("seed", v)) => seed = v.parse().map_err(|_| bad("seed"))?,
                    Some(("range", v)) => {
                        let (a, b) = v.split_once(',').ok_or_else(|| bad("range=LO,HI"))?;
                        range = Some((a.into(), b.into()));
                    }
                    Some(("compare", "exact")) => compare = Compare::Exact,
                    Some(("compare", "ignore")) => compare = Compare::Ignore,
                    Some(("compare", v)) if v.starts_with("f32ulp:") => {
                        compare = Compare::F32Ulp(v[7..].parse().map_err(|_| bad("ulp"))?)
                    }
                    Some(("compare", v)) if v.starts_with("f16ulp:") => {
                        compare = Compare::F16Ulp(v[7..].parse().map_err(|_| bad("ulp"))?)
                    }
                    Some(("compare", v)) if v.starts_with("f32abs:") => {
                        compare = Compare::F32Abs(v[7..].parse().map_err(|_| bad("abs"))?)
                    }
                    _ => return Err(bad("unknown buffer option")),
                }
            }
            let fr = |d: (f32, f32)| -> Result<(f32, f32)> {
                match &range {
                    Some((a, b)) => Ok((
                        a.parse().map_err(|_| bad("range"))?,
                        b.parse().map_err(|_| bad("range"))?,
                    )),
                    None => Ok(d),
                }
            };
            let gen = match kind {
                "zero" => Gen::Zero,
                "random" => Gen::Random,
                "index" => Gen::Index,
                "u32" => {
                    let (a, b) = fr((0.0, u32::MAX as f32))?;
                    Gen::U32(a as u32, b as u32)
                }
                "i32" => {
                    let (a, b) = fr((i32::MIN as f32, i32::MAX as f32))?;
                    Gen::I32(a as i32, b as i32)
                }
                "f32" => {
                    let (a, b) = fr((-1.0, 1.0))?;
                    Gen::F32(a, b)
                }
                "f16" => {
                    let (a, b) = fr((-1.0, 1.0))?;
                    Gen::F16(a, b)
                }
                _ => return Err(bad("unknown generator")),
            };
            if size % 4 != 0 {
                return Err(bad("buffer size must be a multiple of 4"));
            }
            spec.buffers.push(BufferSpec {
                binding,
                size,
                gen,
                seed,
                compare,
            });
        } else if let Some(r) = c.strip_prefix("push:") {
            for item in r.split(',') {
                let mut it = item.split_whitespace();
                let (ty, v) = (it.next().unwrap_or(""), it.next().unwrap_or(""));
                let w = match ty {
                    "u32" => v.parse::<u32>().map_err(|_| bad("u32"))?,
                    "i32" => v.parse::<i32>().map_err(|_| bad("i32"))? as u32,
                    "f32" => v.parse::<f32>().map_err(|_| bad("f32"))?.to_bits(),
                    _ => return Err(bad("push type")),
                };
                spec.push.extend_from_slice(&w.to_le_bytes());
            }
        }
    }
    if !seen {
        bail!("no `// native5-test:` header");
    }
    spec.buffers.sort_by_key(|b| b.binding);
    for (k, b) in spec.buffers.iter().enumerate() {
        if b.binding != k as u32 {
            bail!("buffers must be numbered 0..N without gaps (missing {k})");
        }
    }
    Ok(spec)
}

/// A small deterministic generator (SplitMix64), so inputs are the same everywhere.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn normal_f32(x: f32) -> f32 {
    if x.is_finite() && (x == 0.0 || x.abs() >= f32::MIN_POSITIVE) {
        x
    } else {
        0.0
    }
}

fn f32_to_f16_bits(x: f32) -> u16 {
    // Round to nearest on the mantissa; inputs are normal and in range by construction.
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    if x == 0.0 || exp <= 0 {
        return sign;
    }
    if exp >= 31 {
        return sign | 0x7bff;
    }
    let mant = (b >> 13) & 0x3ff;
    sign | ((exp as u16) << 10) | mant as u16
}

/// Fills a buffer from its spec.
pub fn generate(b: &BufferSpec) -> Vec<u8> {
    let mut r = Rng::new(b.seed);
    let mut out = Vec::with_capacity(b.size);
    let dwords = b.size / 4;
    for i in 0..dwords {
        let w: u32 = match b.gen {
            Gen::Zero => 0,
            Gen::Random => r.next_u64() as u32,
            Gen::Index => i as u32,
            Gen::U32(lo, hi) => {
                let span = hi as u64 - lo as u64 + 1;
                lo.wrapping_add((r.next_u64() % span) as u32)
            }
            Gen::I32(lo, hi) => {
                let span = (hi as i64 - lo as i64 + 1) as u64;
                (lo as i64 + (r.next_u64() % span) as i64) as i32 as u32
            }
            Gen::F32(lo, hi) => normal_f32(lo + (hi - lo) * r.unit() as f32)
                .clamp(lo, hi)
                .to_bits(),
            Gen::F16(lo, hi) => {
                let mut h = || {
                    let x = lo + (hi - lo) * r.unit() as f32;
                    let x = if x.abs() < 6.2e-5 { 0.0 } else { x };
                    f32_to_f16_bits(x) as u32
                };
                h() | h() << 16
            }
        };
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Result of one check.
#[derive(Debug, Clone)]
pub struct CheckReport {
    /// The shader file.
    pub name: String,
    /// `None` on PASS; otherwise what differed or failed.
    pub failure: Option<String>,
    /// Recompile time (decode to SPIR-V).
    pub recompile: Duration,
    /// Driver pipeline creation time of the reference SPIR-V.
    pub reference_pipeline: Duration,
    /// Whether the RDNA code came from the committed corpus.
    pub from_corpus: bool,
    /// The lane mapping the recompiler chose (`None` when it failed).
    pub mapping: Option<shader::Mapping>,
}

impl CheckReport {
    /// True on PASS.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

impl std::fmt::Display for CheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.failure {
            None => write!(f, "PASS {}", self.name),
            Some(why) => write!(f, "FAIL {}: {why}", self.name),
        }
    }
}

/// Synthetic guest memory: a few constant regions.
#[derive(Debug, Default, Clone)]
pub struct GuestMem {
    regions: BTreeMap<u64, Vec<u8>>,
}

impl GuestMem {
    /// Maps `bytes` at `addr`.
    pub fn map(&mut self, addr: u64, bytes: Vec<u8>) {
        self.regions.insert(addr, bytes);
    }
}

impl shader::GuestMemory for GuestMem {
    fn read(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        let (&base, bytes) = self.regions.range(..=addr).next_back()?;
        let off = (addr - base) as usize;
        bytes.get(off..off.checked_add(len)?).map(<[u8]>::to_vec)
    }
}

/// The V# RADV writes for a raw storage buffer: base, stride 0, size in bytes.
pub fn vsharp(base: u64, size: u32) -> [u32; 4] {
    // Dword 3 holds the format and swizzle, which raw dword access does not use.
    [base as u32, (base >> 32) as u32 & 0xffff, size, 0]
}

/// Options of [`check_file_with`].
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Recompile from RADV even when a committed corpus entry exists.
    pub force_radv: bool,
    /// Device name substring (default lavapipe).
    pub device: Option<String>,
    /// Recompile with the exact (workgroup) lane mapping even where the fast path fits.
    pub force_workgroup_mapping: bool,
}

/// Checks one `.comp` file with default options: committed corpus entry if current,
/// RADV otherwise; lavapipe. This is what `native5 shader check FILE.comp` calls.
pub fn check_file(path: &Path) -> Result<CheckReport> {
    let dev = Device::open(None)?;
    check_file_on(&dev, path, &CheckOptions::default())
}

/// Like [`check_file`] with options.
pub fn check_file_with(path: &Path, opts: &CheckOptions) -> Result<CheckReport> {
    let dev = Device::open(opts.device.as_deref())?;
    check_file_on(&dev, path, opts)
}

/// Checks one `.comp` file on an open device. `Err` means the check could not run
/// (bad header, missing tools); a wrong or unrecompilable shader is a FAIL report.
pub fn check_file_on(dev: &Device, path: &Path, opts: &CheckOptions) -> Result<CheckReport> {
    let src =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let spec = parse_spec(&src).with_context(|| format!("{}", path.display()))?;
    let name = path.display().to_string();
    let reference = oracle::glslang(path)?;
    let nbuf = spec.buffers.len() as u32;
    let push_bytes = spec.push.len() as u32;
    let (code, layout, from_corpus) = match oracle::load_entry(path)? {
        Some((c, l)) if !opts.force_radv => (c, l, true),
        _ => {
            let (_, cap) = oracle::capture(path, nbuf, push_bytes, spec.wave32)?;
            (cap.code, cap.layout, false)
        }
    };
    let inputs: Vec<Vec<u8>> = spec.buffers.iter().map(generate).collect();

    // Reference run.
    let (pipe, ref_time) = dev.compute_pipeline(&reference, nbuf, push_bytes)?;
    let mut expected = inputs.clone();
    dev.dispatch(&pipe, &mut expected, &spec.push, spec.groups)?;
    drop(pipe);

    let fail = |why: String, recompile| CheckReport {
        name: name.clone(),
        failure: Some(why),
        recompile,
        reference_pipeline: ref_time,
        from_corpus,
        mapping: None,
    };
    let (out, took) = match recompile(
        &code,
        &layout,
        &spec,
        dev.info().subgroup_size,
        opts.force_workgroup_mapping,
    ) {
        Ok(x) => x,
        Err(e) => return Ok(fail(format!("recompile: {e}"), Duration::ZERO)),
    };
    if let Err(e) = spirv_val(&out.spirv) {
        return Ok(fail(format!("spirv-val: {e}"), took));
    }
    // Bind each recompiled binding to the host buffer its V# points at.
    let mut order = Vec::new();
    for b in &out.buffers {
        let off = b.guest_base.wrapping_sub(BUFFER_BASE);
        let idx = (off / BUFFER_STRIDE) as usize;
        if off % BUFFER_STRIDE != 0 || idx >= inputs.len() {
            return Ok(fail(
                format!(
                    "binding {} points at unknown guest address {:#x}",
                    b.binding, b.guest_base
                ),
                took,
            ));
        }
        order.push(idx);
    }
    let mut bufs: Vec<Vec<u8>> = order.iter().map(|&i| inputs[i].clone()).collect();
    let (pipe, _) = dev.compute_pipeline(&out.spirv, bufs.len() as u32, out.push_bytes)?;
    let mut push = spec.push.clone();
    push.resize(push.len().max(out.push_bytes as usize), 0);
    dev.dispatch(
        &pipe,
        &mut bufs,
        &push[..out.push_bytes as usize],
        spec.groups,
    )?;
    drop(pipe);
    let mut got = inputs.clone();
    for (k, &i) in order.iter().enumerate() {
        got[i] = std::mem::take(&mut bufs[k]);
    }
    for (k, b) in spec.buffers.iter().enumerate() {
        if let Some(why) = compare(&expected[k], &got[k], b.compare) {
            return Ok(CheckReport {
                mapping: Some(out.mapping),
                ..fail(format!("buffer {k}: {why}"), took)
            });
        }
    }
    Ok(CheckReport {
        name,
        failure: None,
        recompile: took,
        reference_pipeline: ref_time,
        from_corpus,
        mapping: Some(out.mapping),
    })
}

/// Recompiles corpus code with the synthetic guest memory of a test; returns the output
/// and the time it took (decode to SPIR-V).
pub fn recompile(
    code: &[u8],
    layout: &Layout,
    spec: &TestSpec,
    host_subgroup: u32,
    force_workgroup: bool,
) -> Result<(shader::Output, Duration), shader::Error> {
    let mut mem = GuestMem::default();
    let mut set0 = Vec::new();
    for (k, b) in spec.buffers.iter().enumerate() {
        let base = BUFFER_BASE + k as u64 * BUFFER_STRIDE;
        for w in vsharp(base, b.size as u32) {
            set0.extend_from_slice(&w.to_le_bytes());
        }
    }
    debug_assert_eq!(set0.len() as u64, spec.buffers.len() as u64 * VSHARP_BYTES);
    mem.map(SET0_ADDR, set0);
    let mut sgprs = Vec::new();
    for a in &layout.sgprs {
        let v = match a.role {
            Role::RingOffsets | Role::ScratchOffset => shader::SgprValue::Const(0),
            Role::DescSet { set: 0 } => shader::SgprValue::Const(SET0_ADDR as u32),
            Role::DescSet { set } => {
                return Err(shader::Error::State {
                    pc: 0,
                    why: format!("descriptor set {set}: tests use set 0 only"),
                })
            }
            Role::PushPtr => {
                return Err(shader::Error::State {
                    pc: 0,
                    why: "push constants through a pointer are not supported yet".into(),
                })
            }
            Role::InlinePush { dword } => shader::SgprValue::PushConstant(dword),
            Role::GridSize { axis } => shader::SgprValue::NumWorkgroups(axis),
            Role::WorkgroupId { axis } => shader::SgprValue::WorkgroupId(axis),
            Role::TgSize => shader::SgprValue::TgSize,
            Role::LocalId { .. } => continue,
        };
        sgprs.push((a.reg as u8, v));
    }
    let vgprs = layout
        .vgprs
        .iter()
        .filter_map(|a| match a.role {
            Role::LocalId { axis } => Some((a.reg, shader::VgprValue::LocalId(axis))),
            _ => None,
        })
        .collect();
    let input = shader::ShaderInput {
        code,
        target: shader::Target::from_name(&layout.target).unwrap_or(shader::Target::Gfx1030),
        stage: shader::Stage::Compute,
        wave: if layout.wave == 32 {
            shader::WaveSize::Wave32
        } else {
            shader::WaveSize::Wave64
        },
        workgroup: layout.workgroup,
        sgprs,
        vgprs,
        lds_bytes: layout.lds_bytes,
        host_subgroup,
        float_mode: None,
        force_workgroup_mapping: force_workgroup,
    };
    let t = std::time::Instant::now();
    let out = shader::recompile(&input, &mem)?;
    Ok((out, t.elapsed()))
}

/// Runs `spirv-val` on a module; `Ok` when it is valid (or the tool is missing and
/// `NATIVE5_REQUIRE_SPIRV_VAL` is not `1`).
pub fn spirv_val(words: &[u32]) -> Result<()> {
    let dir = tempfile::tempdir()?;
    let p = dir.path().join("m.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&p, bytes)?;
    let o = match std::process::Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1"])
        .arg(&p)
        .output()
    {
        Ok(o) => o,
        Err(_) if std::env::var("NATIVE5_REQUIRE_SPIRV_VAL").as_deref() != Ok("1") => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if !o.status.success() {
        bail!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    Ok(())
}

/// The first difference between two buffers, described.
pub fn compare(want: &[u8], got: &[u8], how: Compare) -> Option<String> {
    if how == Compare::Ignore {
        return None;
    }
    if want.len() != got.len() {
        return Some(format!("size {} != {}", got.len(), want.len()));
    }
    for (k, (a, b)) in want.chunks(4).zip(got.chunks(4)).enumerate() {
        let wa = u32::from_le_bytes(a.try_into().unwrap_or([0; 4]));
        let wb = u32::from_le_bytes(b.try_into().unwrap_or([0; 4]));
        let ok = match how {
            Compare::Exact => wa == wb,
            Compare::F32Ulp(n) => {
                let (fa, fb) = (f32::from_bits(wa), f32::from_bits(wb));
                (fa.is_nan() && fb.is_nan()) || ulps(wa, wb) <= n as u64
            }
            Compare::F16Ulp(n) => (0..2).all(|h| {
                let (x, y) = ((wa >> (16 * h)) & 0xffff, (wb >> (16 * h)) & 0xffff);
                let key = |v: u32| -> i64 {
                    if v & 0x8000 != 0 {
                        -((v & 0x7fff) as i64)
                    } else {
                        v as i64
                    }
                };
                (key(x) - key(y)).unsigned_abs() <= n as u64
            }),
            Compare::F32Abs(eps) => {
                let (fa, fb) = (f32::from_bits(wa), f32::from_bits(wb));
                (fa.is_nan() && fb.is_nan()) || (fa - fb).abs() <= eps
            }
            Compare::Ignore => true,
        };
        if !ok {
            return Some(format!(
                "first difference at byte offset {:#x}: expected {wa:#010x}, got {wb:#010x}",
                k * 4
            ));
        }
    }
    None
}

fn ulps(a: u32, b: u32) -> u64 {
    // Map floats to a monotonic integer line.
    let key = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -((x & 0x7fff_ffff) as i64)
        } else {
            x as i64
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_header() {
        let s = "// native5-test: groups=16,1,1\n// buffer 0: 4096 bytes random seed=7\n\
                 // buffer 1: 4096 bytes zero compare=exact\n// push: u32 7, f32 1.5\n";
        let t = parse_spec(s).unwrap();
        assert_eq!(t.groups, [16, 1, 1]);
        assert_eq!(t.buffers[0].seed, 7);
        assert_eq!(t.buffers[1].compare, Compare::Exact);
        assert_eq!(t.push.len(), 8);
        let t2 = parse_spec(
            "// native5-test: groups=1,1,1\n// buffer 0: 64 bytes f32 range=1,2 compare=f32ulp:3\n",
        )
        .unwrap();
        assert_eq!(t2.buffers[0].compare, Compare::F32Ulp(3));
        for w in generate(&t2.buffers[0]).chunks(4) {
            let f = f32::from_le_bytes(w.try_into().unwrap());
            assert!((1.0..=2.0).contains(&f));
        }
    }

    #[test]
    fn compare_names_the_offset() {
        let a = [0u8; 8];
        let mut b = [0u8; 8];
        b[5] = 1;
        let m = compare(&a, &b, Compare::Exact).unwrap();
        assert!(m.contains("0x4"), "{m}");
        assert_eq!(ulps(1.0f32.to_bits(), 1.0f32.to_bits() + 2), 2);
    }
}
