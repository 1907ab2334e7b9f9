//! Test support: drives LLVM 14's own AMDGPU disassembler as an oracle.
//!
//! llvm-mc reads its whole input as one byte stream, so it cannot answer
//! "what is the first instruction of this buffer" for a million buffers at
//! once. `tools/llvm-oracle.c` calls the same disassembler through the LLVM-C
//! API, one input line per buffer. This module compiles that helper with the
//! system C compiler against `libLLVM-14` and talks to it through pipes. It is
//! only used by the differential tests and the generators; nothing in the
//! decoder depends on it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{Target, WaveSize};

/// One answer of the oracle for one buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleAnswer {
    /// Bytes LLVM consumed: 0 when it rejected the buffer, -1 when LLVM crashed.
    pub len: i32,
    /// The text LLVM printed (empty when rejected).
    pub text: String,
}

/// Why the oracle is unavailable.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// The C compiler or the LLVM 14 headers/library are missing.
    #[error("LLVM oracle unavailable: {0}")]
    Unavailable(String),
    /// Talking to the helper process failed.
    #[error("LLVM oracle I/O: {0}")]
    Io(#[from] std::io::Error),
}

const SOURCE: &str = include_str!("../tools/llvm-oracle.c");

/// Builds the helper (once per source version) and returns its path.
pub fn build_oracle() -> Result<PathBuf, OracleError> {
    let dir = std::env::temp_dir().join("rdna-llvm-oracle");
    std::fs::create_dir_all(&dir)?;
    let hash = SOURCE.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    });
    let exe = dir.join(format!("llvm-oracle-{hash:016x}"));
    if exe.exists() {
        return Ok(exe);
    }
    let src = dir.join(format!("llvm-oracle-{hash:016x}.c"));
    std::fs::write(&src, SOURCE)?;
    let lib = Path::new("/usr/lib/llvm-14/lib");
    if !lib.join("libLLVM-14.so").exists() {
        return Err(OracleError::Unavailable(
            "no /usr/lib/llvm-14/lib/libLLVM-14.so".into(),
        ));
    }
    let tmp = dir.join(format!("llvm-oracle-{hash:016x}.tmp{}", std::process::id()));
    let out = Command::new("cc")
        .args(["-O2", "-I/usr/include/llvm-c-14", "-I/usr/include/llvm-14"])
        .arg(&src)
        .arg("-o")
        .arg(&tmp)
        .arg(format!("-L{}", lib.display()))
        .arg("-lLLVM-14")
        .output()
        .map_err(|e| OracleError::Unavailable(format!("cc: {e}")))?;
    if !out.status.success() {
        return Err(OracleError::Unavailable(
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ));
    }
    // Rename so that concurrent builders never run a half-written binary.
    std::fs::rename(&tmp, &exe)?;
    Ok(exe)
}

/// The LLVM CPU name of a target.
pub fn cpu_name(target: Target) -> &'static str {
    match target {
        Target::Gfx1013 => "gfx1013",
        Target::Gfx1030 => "gfx1030",
    }
}

/// The LLVM feature string for a wave size.
pub fn features(wave: WaveSize) -> &'static str {
    match wave {
        WaveSize::Wave32 => "+wavefrontsize32",
        WaveSize::Wave64 => "+wavefrontsize64",
    }
}

/// Disassembles each buffer separately with LLVM; one answer per buffer.
pub fn query(
    target: Target,
    wave: WaveSize,
    buffers: &[Vec<u8>],
) -> Result<Vec<OracleAnswer>, OracleError> {
    let exe = build_oracle()?;
    let mut child = Command::new(&exe)
        .arg(cpu_name(target))
        .arg(features(wave))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input: Vec<u8> = {
        let mut s = String::with_capacity(buffers.len() * 40);
        for b in buffers {
            for x in b {
                s.push_str(&format!("{x:02x}"));
            }
            s.push('\n');
        }
        s.into_bytes()
    };
    // Write from a thread so a full stdout pipe cannot deadlock us.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let stdout = child.stdout.take().expect("piped stdout");
    let mut answers = Vec::with_capacity(buffers.len());
    for line in BufReader::new(stdout).lines() {
        let line = line?;
        let (n, t) = line.split_once('\t').unwrap_or((line.as_str(), ""));
        answers.push(OracleAnswer {
            len: n.trim().parse().unwrap_or(0),
            text: t.to_string(),
        });
    }
    writer
        .join()
        .map_err(|_| OracleError::Unavailable("writer thread".into()))??;
    child.wait()?;
    if answers.len() != buffers.len() {
        return Err(OracleError::Unavailable(format!(
            "oracle answered {} of {} buffers",
            answers.len(),
            buffers.len()
        )));
    }
    Ok(answers)
}

/// Runs `llvm-mc -arch=amdgcn` for `target` and `wave` with one extra mode flag
/// (`-show-encoding` to assemble, `-disassemble` to decode) on `input`, and returns its
/// standard output. The input is written from a second thread so a large one cannot
/// deadlock against llvm-mc's output pipe.
pub fn llvm_mc(
    target: Target,
    wave: WaveSize,
    mode: &str,
    input: String,
) -> std::io::Result<String> {
    let mut args = vec![
        "-arch=amdgcn".to_string(),
        format!("-mcpu={}", target.name()),
        mode.to_string(),
    ];
    if wave == WaveSize::Wave64 {
        args.push("-mattr=+wavefrontsize64".into());
    }
    let mut child = Command::new("llvm-mc")
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin was piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output()?;
    writer.join().expect("the writer thread does not panic")?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
