//! The shader oracle tool.
//!
//! - `check FILE.comp...`: runs the whole chain on each file, prints PASS/FAIL lines,
//!   exits 0 only if all pass.
//! - `regen FILE.comp...`: recompiles each file through RADV and rewrites its corpus
//!   entry (`NAME.bin`, `NAME.json`). Explicit: the default test run never calls RADV.
//! - `bench FILE.comp...`: median recompile time per shader (decode to SPIR-V), and its
//!   ratio to the driver's pipeline creation for the reference SPIR-V, in the same run.
//! - `radv-dump FILE.spv BUFFERS PUSH_BYTES`: the RADV child (internal).
use std::path::PathBuf;

use anyhow::{bail, Result};
use gpu::check::{self, CheckOptions};
use gpu::oracle;

fn main() -> Result<()> {
    oracle::run_child_if_requested();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let files: Vec<PathBuf> = args.iter().skip(1).map(PathBuf::from).collect();
    match args.first().map(String::as_str) {
        Some("radv-dump") if args.len() == 4 => {
            oracle::radv_child(std::path::Path::new(&args[1]), &args[2], &args[3])
        }
        Some("check") => {
            let dev = gpu::device::Device::open(None)?;
            let mut bad = 0;
            for f in &files {
                match check::check_file_on(&dev, f, &CheckOptions::default()) {
                    Ok(r) => {
                        println!("{r}");
                        bad += usize::from(!r.passed());
                    }
                    Err(e) => {
                        println!("FAIL {}: {e:#}", f.display());
                        bad += 1;
                    }
                }
            }
            if bad > 0 {
                std::process::exit(1);
            }
            Ok(())
        }
        Some("regen") => {
            // `--force` recompiles entries that are already current.
            let force = files.iter().any(|f| f.as_os_str() == "--force");
            let mut bad = 0;
            for f in files.iter().filter(|f| f.as_os_str() != "--force") {
                if !force && oracle::load_entry(f)?.is_some() {
                    continue;
                }
                let r = (|| -> Result<oracle::Capture> {
                    let spec = check::parse_spec(&std::fs::read_to_string(f)?)?;
                    let (_, cap) = oracle::capture(
                        f,
                        spec.buffers.len() as u32,
                        spec.push.len() as u32,
                        spec.wave32,
                    )?;
                    oracle::save_entry(f, &cap)?;
                    Ok(cap)
                })();
                match r {
                    Ok(cap) => println!(
                        "{}: {} bytes, wave{}",
                        f.display(),
                        cap.code.len(),
                        cap.layout.wave
                    ),
                    Err(e) => {
                        bad += 1;
                        println!("{}: {e:#}", f.display());
                    }
                }
            }
            if bad > 0 {
                bail!("{bad} failed");
            }
            Ok(())
        }
        Some("bench") => bench(&files),
        _ => bail!(
            "usage: native5-shader-oracle check|regen|bench FILE.comp... \
             | radv-dump FILE.spv BUFFERS PUSH_BYTES"
        ),
    }
}

fn bench(files: &[PathBuf]) -> Result<()> {
    let dev = gpu::device::Device::open(None)?;
    let sub = dev.info().subgroup_size;
    let mut rows = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(f)?;
        let spec = check::parse_spec(&src)?;
        let Some((code, layout)) = oracle::load_entry(f)? else {
            println!("skip {}: no current corpus entry", f.display());
            continue;
        };
        let reference = oracle::glslang(f)?;
        let mut rec = Vec::new();
        let mut drv = Vec::new();
        for _ in 0..5 {
            let Ok((_, t)) = check::recompile(&code, &layout, &spec, sub, false) else {
                break;
            };
            rec.push(t);
            let (_, d) = dev.compute_pipeline(
                &reference,
                spec.buffers.len() as u32,
                spec.push.len() as u32,
            )?;
            drv.push(d);
        }
        if rec.is_empty() {
            println!("skip {}: does not recompile", f.display());
            continue;
        }
        rec.sort();
        drv.sort();
        rows.push((
            f.display().to_string(),
            rec[rec.len() / 2],
            drv[drv.len() / 2],
        ));
    }
    if rows.is_empty() {
        bail!("nothing to measure");
    }
    let mut r: Vec<_> = rows.iter().map(|x| x.1).collect();
    let mut d: Vec<_> = rows.iter().map(|x| x.2).collect();
    r.sort();
    d.sort();
    let (mr, md) = (r[r.len() / 2], d[d.len() / 2]);
    let slow = rows
        .iter()
        .max_by_key(|x| x.1)
        .map(|x| format!("{} ({:.1} us)", x.0, x.1.as_secs_f64() * 1e6))
        .unwrap_or_default();
    println!(
        "{} shaders: median recompile {:.1} us, median driver pipeline creation {:.1} us, ratio {:.3}; slowest {}",
        rows.len(),
        mr.as_secs_f64() * 1e6,
        md.as_secs_f64() * 1e6,
        mr.as_secs_f64() / md.as_secs_f64(),
        slow
    );
    Ok(())
}
