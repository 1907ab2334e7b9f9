//! The shader oracle: a GLSL compute shader compiled by glslang (the reference SPIR-V)
//! and by Mesa's RADV on its null device (RDNA2 machine code, what a real AMD compiler
//! produces), with the argument layout RADV gave the code.
//!
//! RADV runs in a child process, because its debug output goes to stderr and its
//! environment (`RADV_FORCE_FAMILY`, `RADV_DEBUG`, the ICD) must not leak into this
//! process's own Vulkan use. The child is `native5-shader-oracle radv-dump`, found
//! through `NATIVE5_SHADER_ORACLE`, next to the current executable, or else the current
//! executable itself with `NATIVE5_RADV_CHILD` set (a program that embeds this crate
//! calls [`run_child_if_requested`] first thing in `main`).
//!
//! The argument layout follows Mesa 22.3's `radv_shader_args.c` order for compute:
//! ring offsets (2 SGPRs), one SGPR per used descriptor set, the push-constant pointer
//! or the inlined push constants, the grid size (3), the used workgroup-id components,
//! `tg_size`, the scratch offset; then the local invocation ids in v0–v2. Which optional
//! arguments exist is read from the NIR that RADV prints, and checked against the
//! registers `p_startpgm` names: a mismatch is an error, never a guess.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

/// What one argument register holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Role {
    /// The scratch ring-offsets pointer (2 SGPRs).
    RingOffsets,
    /// The 32-bit pointer to descriptor set `set`.
    DescSet {
        /// Set number.
        set: u32,
    },
    /// The 32-bit pointer to the push-constant block.
    PushPtr,
    /// Push-constant dword `dword`, inlined.
    InlinePush {
        /// Dword index in the push block.
        dword: u32,
    },
    /// The number of workgroups on an axis.
    GridSize {
        /// 0 = x.
        axis: u8,
    },
    /// The workgroup id on an axis.
    WorkgroupId {
        /// 0 = x.
        axis: u8,
    },
    /// Wave-in-workgroup information.
    TgSize,
    /// The scratch wave offset.
    ScratchOffset,
    /// The local invocation id on an axis (a VGPR).
    LocalId {
        /// 0 = x.
        axis: u8,
    },
}

/// One argument register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arg {
    /// Register number (SGPR or VGPR by role).
    pub reg: u16,
    /// What it holds.
    #[serde(flatten)]
    pub role: Role,
}

/// A compiled corpus entry's layout file (`NAME.json` beside `NAME.bin`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// LLVM target name (`gfx1030` for RADV's navi21).
    pub target: String,
    /// 32 or 64.
    pub wave: u32,
    /// Workgroup size.
    pub workgroup: [u32; 3],
    /// LDS bytes (`shared-size`).
    pub lds_bytes: u32,
    /// Argument SGPRs, one entry per register.
    pub sgprs: Vec<Arg>,
    /// Argument VGPRs, one entry per register.
    pub vgprs: Vec<Arg>,
    /// SHA-1 (hex) of the `.comp` source this was compiled from.
    pub source_sha1: String,
    /// The Mesa version string that compiled it, when known.
    pub compiler: String,
}

/// RADV's output for one shader.
#[derive(Debug, Clone)]
pub struct Capture {
    /// The machine code.
    pub code: Vec<u8>,
    /// Its layout.
    pub layout: Layout,
    /// ACO's disassembly text.
    pub disasm: String,
}

/// SHA-1 of bytes as hex.
pub fn sha1_hex(b: &[u8]) -> String {
    use sha1::Digest;
    sha1::Sha1::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

/// Compiles GLSL to SPIR-V words with glslangValidator.
pub fn glslang(comp: &Path) -> Result<Vec<u32>> {
    let dir = tempfile::tempdir()?;
    let out = dir.path().join("shader.spv");
    let o = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.2", "-S", "comp", "-o"])
        .arg(&out)
        .arg(comp)
        .output()
        .context("running glslangValidator (package glslang-tools)")?;
    if !o.status.success() {
        bail!(
            "glslangValidator failed on {}:\n{}{}",
            comp.display(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    words(&std::fs::read(&out)?)
}

/// Little-endian bytes to words.
pub fn words(b: &[u8]) -> Result<Vec<u32>> {
    if b.len() % 4 != 0 {
        bail!("SPIR-V size {} is not a multiple of 4", b.len());
    }
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// If this process was started as the RADV child, creates the pipeline and exits.
pub fn run_child_if_requested() {
    let Ok(args) = std::env::var("NATIVE5_RADV_CHILD") else {
        return;
    };
    let parts: Vec<&str> = args.split('\u{1f}').collect();
    let code = match parts.as_slice() {
        [spv, n, push] => match radv_child(Path::new(spv), n, push) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("native5 radv child: {e:#}");
                1
            }
        },
        _ => 2,
    };
    std::process::exit(code);
}

/// The child's work: create a compute pipeline from a SPIR-V file on the RADV device.
pub fn radv_child(spv: &Path, buffers: &str, push: &str) -> Result<()> {
    let w = words(&std::fs::read(spv)?)?;
    let dev = crate::device::Device::open(Some("radv"))?;
    let (p, _) = dev.compute_pipeline(&w, buffers.parse()?, push.parse()?)?;
    // The null device crashes in vkDeviceWaitIdle; the dump is all this process is for,
    // so leave without tearing down (exit flushes the driver's buffered output).
    std::mem::forget(p);
    std::mem::forget(dev);
    std::process::exit(0)
}

fn oracle_command() -> Result<Command> {
    if let Some(p) = std::env::var_os("NATIVE5_SHADER_ORACLE") {
        return Ok(Command::new(p));
    }
    let exe = std::env::current_exe()?;
    let dir = exe.parent().ok_or_else(|| anyhow!("no executable dir"))?;
    for cand in [dir.to_path_buf(), dir.join("..")] {
        let p = cand.join("native5-shader-oracle");
        if p.is_file() {
            return Ok(Command::new(p));
        }
    }
    Ok(Command::new(exe))
}

/// Compiles SPIR-V through RADV's null device and returns ACO's stderr dump.
pub fn radv_dump(spirv: &[u32], buffers: u32, push_bytes: u32, wave32: bool) -> Result<String> {
    let dir = tempfile::tempdir()?;
    let spv = dir.path().join("shader.spv");
    let bytes: Vec<u8> = spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv, bytes)?;
    let mut cmd = oracle_command()?;
    let is_oracle = cmd
        .get_program()
        .to_string_lossy()
        .ends_with("native5-shader-oracle");
    if is_oracle {
        cmd.arg("radv-dump")
            .arg(&spv)
            .arg(buffers.to_string())
            .arg(push_bytes.to_string());
    } else {
        cmd.env(
            "NATIVE5_RADV_CHILD",
            format!("{}\u{1f}{buffers}\u{1f}{push_bytes}", spv.display()),
        );
    }
    let xdg = std::env::var_os("XDG_RUNTIME_DIR").unwrap_or_else(|| "/tmp".into());
    cmd.env("RADV_FORCE_FAMILY", "navi21")
        .env(
            "VK_ICD_FILENAMES",
            "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json",
        )
        .env("RADV_DEBUG", "shaders,nocache")
        .env("MESA_SHADER_CACHE_DISABLE", "true")
        .env("XDG_RUNTIME_DIR", xdg)
        .env_remove("VK_DRIVER_FILES");
    if wave32 {
        cmd.env("RADV_PERFTEST", "cswave32");
    } else {
        cmd.env_remove("RADV_PERFTEST");
    }
    let o = cmd.output().context("starting the RADV child process")?;
    // The NIR goes to stdout and ACO's dump to stderr; both are needed.
    let err = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        bail!("RADV child failed ({}):\n{}", o.status, tail(&err));
    }
    Ok(err)
}

fn tail(s: &str) -> &str {
    let n = s.len().saturating_sub(4000);
    let mut k = n;
    while !s.is_char_boundary(k) {
        k += 1;
    }
    &s[k..]
}

/// What the NIR says the shader uses (the inputs to RADV's argument choice).
#[derive(Debug, Default)]
struct Usage {
    sets: Vec<u32>,
    grid: bool,
    wg: [bool; 3],
    tg_size: bool,
    push: Option<(u32, u32)>,
    workgroup: [u32; 3],
    lds: u32,
}

fn parse_nir(nir: &str) -> Result<Usage> {
    let mut u = Usage::default();
    let mut wg_names = Vec::new();
    for line in nir.lines() {
        let l = line.trim();
        if let Some(r) = l.strip_prefix("workgroup-size:") {
            let v: Vec<u32> = r
                .split(',')
                .map(|x| x.trim().parse())
                .collect::<Result<_, _>>()?;
            if v.len() == 3 {
                u.workgroup = [v[0], v[1], v[2]];
            }
        }
        if let Some(r) = l.strip_prefix("shared-size:") {
            u.lds = r.trim().parse()?;
        }
        if l.starts_with("decl_var ssbo")
            || l.starts_with("decl_var ubo")
            || l.starts_with("decl_var uniform")
        {
            // "(location, set, binding)" at the end.
            if let Some(open) = l.rfind('(') {
                let f: Vec<&str> = l[open + 1..].trim_end_matches(')').split(',').collect();
                if f.len() == 3 {
                    if let Ok(s) = f[1].trim().parse::<u32>() {
                        if !u.sets.contains(&s) {
                            u.sets.push(s);
                        }
                    }
                }
            }
        }
        if l.contains("intrinsic load_num_workgroups") {
            u.grid = true;
        }
        if l.contains("intrinsic load_local_invocation_index")
            || l.contains("intrinsic load_subgroup_id")
            || l.contains("intrinsic load_num_subgroups")
        {
            u.tg_size = true;
        }
        if l.contains("intrinsic load_workgroup_id") {
            if let Some(name) = l.split_whitespace().find(|t| t.starts_with("ssa_")) {
                wg_names.push(name.to_string());
            }
        }
        if l.contains("intrinsic load_push_constant") {
            let base = field(l, "base=").unwrap_or(0);
            let range = field(l, "range=").unwrap_or(0);
            let (lo, hi) = u.push.unwrap_or((u32::MAX, 0));
            u.push = Some((lo.min(base), hi.max(base + range)));
        }
    }
    u.sets.sort_unstable();
    for name in &wg_names {
        for line in nir.lines() {
            if line.contains("load_workgroup_id") {
                continue;
            }
            let mut rest = line;
            while let Some(p) = rest.find(name.as_str()) {
                let after = &rest[p + name.len()..];
                let boundary = after.chars().next().is_none_or(|c| !c.is_ascii_digit());
                if boundary {
                    if let Some(sw) = after.strip_prefix('.') {
                        for c in sw.chars().take_while(|c| "xyzw".contains(*c)) {
                            match c {
                                'x' => u.wg[0] = true,
                                'y' => u.wg[1] = true,
                                'z' => u.wg[2] = true,
                                _ => {}
                            }
                        }
                    } else {
                        u.wg = [true; 3];
                    }
                }
                rest = after;
            }
        }
    }
    Ok(u)
}

fn field(l: &str, key: &str) -> Option<u32> {
    let p = l.find(key)? + key.len();
    let digits: String = l[p..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Parses `p_startpgm`'s definitions into SGPR and VGPR register lists.
fn parse_startpgm(line: &str) -> Result<(Vec<u16>, Vec<u16>)> {
    let mut s = Vec::new();
    let mut v = Vec::new();
    let defs = line.split('=').next().unwrap_or("");
    for tok in defs.split(',') {
        let Some(reg) = tok.trim().rsplit(':').next() else {
            continue;
        };
        let (file, rest) = reg.split_at(1.min(reg.len()));
        let range = rest.trim_start_matches('[').trim_end_matches(']');
        let (a, b) = match range.split_once('-') {
            Some((a, b)) => (a.parse::<u16>()?, b.parse::<u16>()?),
            None => {
                let a = range.parse::<u16>()?;
                (a, a)
            }
        };
        let list = match file {
            "s" => &mut s,
            "v" => &mut v,
            _ => bail!("unknown register file in `{tok}`"),
        };
        list.extend(a..=b);
    }
    Ok((s, v))
}

/// Parses RADV's dump: NIR usage, `p_startpgm`, and the hex of the disassembly.
pub fn parse_dump(dump: &str, wave: u32, source_sha1: &str) -> Result<Capture> {
    let ra = dump
        .find("After RA")
        .ok_or_else(|| anyhow!("no `After RA` section in RADV's output"))?;
    let usage = parse_nir(&dump[..ra])?;
    let start = dump[ra..]
        .lines()
        .find(|l| l.contains("p_startpgm"))
        .ok_or_else(|| anyhow!("no p_startpgm in RADV's output"))?;
    let (sregs, vregs) = parse_startpgm(start)?;
    let dis = dump
        .find("disasm:")
        .ok_or_else(|| anyhow!("no disasm section in RADV's output"))?;
    let mut code = Vec::new();
    let mut text = String::new();
    for line in dump[dis + 7..].lines() {
        let Some((ins, hex)) = line.split_once(';') else {
            if line.trim().is_empty() || line.trim_end().ends_with(':') {
                continue;
            }
            break;
        };
        let ws: Vec<u32> = match hex
            .split_whitespace()
            .map(|h| u32::from_str_radix(h, 16))
            .collect::<Result<_, _>>()
        {
            Ok(w) => w,
            Err(_) => break,
        };
        for w in ws {
            code.extend_from_slice(&w.to_le_bytes());
        }
        text.push_str(ins.trim());
        text.push('\n');
    }
    if code.is_empty() {
        bail!("no code words in RADV's disassembly");
    }
    let layout = assign_roles(&usage, &sregs, &vregs, wave, source_sha1)?;
    Ok(Capture {
        code,
        layout,
        disasm: text,
    })
}

fn assign_roles(
    u: &Usage,
    sregs: &[u16],
    vregs: &[u16],
    wave: u32,
    source_sha1: &str,
) -> Result<Layout> {
    if sregs.len() < 3 {
        bail!(
            "p_startpgm names {} SGPRs, expected at least 3",
            sregs.len()
        );
    }
    let fixed = 2 + 1; // ring offsets, scratch offset
    let opt = u.sets.len()
        + if u.grid { 3 } else { 0 }
        + u.wg.iter().filter(|&&b| b).count()
        + usize::from(u.tg_size);
    let push_regs = sregs.len().checked_sub(fixed + opt).ok_or_else(|| {
        anyhow!(
            "p_startpgm has fewer SGPRs ({}) than the NIR needs",
            sregs.len()
        )
    })?;
    let mut roles = vec![Role::RingOffsets, Role::RingOffsets];
    roles.extend(u.sets.iter().map(|&s| Role::DescSet { set: s }));
    match (u.push, push_regs) {
        (_, 0) => {}
        (Some((lo, hi)), n) if (hi - lo).div_ceil(4) as usize == n => {
            roles.extend((0..n as u32).map(|k| Role::InlinePush { dword: lo / 4 + k }));
        }
        (Some(_), 1) => roles.push(Role::PushPtr),
        (p, n) => bail!("cannot place {n} push-constant SGPRs for push range {p:?}"),
    }
    if u.grid {
        roles.extend((0..3).map(|a| Role::GridSize { axis: a }));
    }
    for a in 0..3u8 {
        if u.wg[a as usize] {
            roles.push(Role::WorkgroupId { axis: a });
        }
    }
    if u.tg_size {
        roles.push(Role::TgSize);
    }
    roles.push(Role::ScratchOffset);
    if roles.len() != sregs.len() {
        bail!(
            "argument layout mismatch: {} roles for {} SGPRs",
            roles.len(),
            sregs.len()
        );
    }
    let sgprs = sregs
        .iter()
        .zip(roles)
        .map(|(&reg, role)| Arg { reg, role })
        .collect();
    let vgprs = vregs
        .iter()
        .enumerate()
        .take(3)
        .map(|(k, &reg)| Arg {
            reg,
            role: Role::LocalId { axis: k as u8 },
        })
        .collect();
    Ok(Layout {
        target: "gfx1030".into(),
        wave,
        workgroup: u.workgroup,
        lds_bytes: u.lds,
        sgprs,
        vgprs,
        source_sha1: source_sha1.into(),
        compiler: "Mesa RADV/ACO (navi21 null device)".into(),
    })
}

/// Compiles a `.comp` file both ways: glslang SPIR-V and RADV's RDNA2 code.
pub fn capture(
    comp: &Path,
    buffers: u32,
    push_bytes: u32,
    wave32: bool,
) -> Result<(Vec<u32>, Capture)> {
    let src = std::fs::read(comp)?;
    let spirv = glslang(comp)?;
    let dump = radv_dump(&spirv, buffers, push_bytes, wave32)?;
    let cap = parse_dump(&dump, if wave32 { 32 } else { 64 }, &sha1_hex(&src))?;
    Ok((spirv, cap))
}

/// Paths of a corpus entry: `NAME.comp` → (`NAME.bin`, `NAME.json`).
pub fn entry_paths(comp: &Path) -> (PathBuf, PathBuf) {
    (comp.with_extension("bin"), comp.with_extension("json"))
}

/// Writes a capture as a corpus entry beside its `.comp`.
pub fn save_entry(comp: &Path, cap: &Capture) -> Result<()> {
    let (bin, json) = entry_paths(comp);
    std::fs::write(bin, &cap.code)?;
    std::fs::write(json, serde_json::to_string_pretty(&cap.layout)? + "\n")?;
    Ok(())
}

/// Reads a committed corpus entry, if present and compiled from this exact source.
pub fn load_entry(comp: &Path) -> Result<Option<(Vec<u8>, Layout)>> {
    let (bin, json) = entry_paths(comp);
    if !bin.is_file() || !json.is_file() {
        return Ok(None);
    }
    let layout: Layout = serde_json::from_str(&std::fs::read_to_string(&json)?)
        .with_context(|| format!("parsing {}", json.display()))?;
    let src = std::fs::read(comp)?;
    if layout.source_sha1 != sha1_hex(&src) {
        return Ok(None);
    }
    Ok(Some((std::fs::read(bin)?, layout)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpgm_registers() {
        let l = "\t s2: %19:s[0-1],  s1: %20:s[2],  s1: %21:s[3],  v3: %23:v[0-2] = p_startpgm";
        let (s, v) = parse_startpgm(l).unwrap();
        assert_eq!(s, vec![0, 1, 2, 3]);
        assert_eq!(v, vec![0, 1, 2]);
    }
}
