//! The whole relink of a title folder into an output folder, written atomically.

use crate::analyze;
use crate::emit::{self, Binding, EmitPlan, Kind};
use crate::runtime_exports::{self, RUNTIME_FILE};
use crate::RelinkError;
use sce::{Image, NidCatalogue};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Options of `native5 relink`.
#[derive(Debug, Clone, Default)]
pub struct RelinkOptions {
    /// Skip the raw-syscall check (debugging only).
    pub allow_syscalls: bool,
    /// Write `imports.json`.
    pub registry: bool,
    /// `--unused-filter`.
    pub unused_filter: analyze::UnusedFilter,
    /// The runtime shared object; located automatically when `None`.
    pub runtime: Option<PathBuf>,
    /// Names for NIDs in messages.
    pub catalogue: NidCatalogue,
}

/// What a relink wrote.
#[derive(Debug, Clone, Default)]
pub struct RelinkReport {
    /// Files written, relative to OUTDIR.
    pub files: Vec<String>,
    /// Imports bound to the runtime, over all binaries.
    pub bound_runtime: usize,
    /// Imports bound to bundled modules.
    pub bound_modules: usize,
    /// Imports bound to abort stubs: (binary, NID, name).
    pub stubbed: Vec<(String, String, Option<String>)>,
    /// Imports bound to runtime stubs that return an error: (binary, NID, name).
    pub unimplemented: Vec<(String, String, Option<String>)>,
    /// Imports dropped by the unused-import filter.
    pub dropped: usize,
    /// Modules converted, relative to OUTDIR.
    pub modules: Vec<String>,
    /// Instructions the syscall scan decoded.
    pub scanned_instructions: usize,
}

#[derive(Serialize)]
struct RegistryEntry {
    binary: String,
    nid: String,
    name: Option<String>,
    module: Option<String>,
    library: Option<String>,
    class: &'static str,
}

/// A parsed module of the title folder.
struct ModuleFile {
    rel: PathBuf,
    img: Image,
    start: bool,
}

fn parse(path: &Path, data: &[u8]) -> Result<Image, RelinkError> {
    Image::parse(data).map_err(|source| RelinkError::Format {
        path: path.display().to_string(),
        source,
    })
}

fn is_module_file(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("prx") || e.eq_ignore_ascii_case("sprx"))
}

fn walk(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> Result<(), RelinkError> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(RelinkError::io(format!("listing {}", dir.display())))?
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let r = rel.join(e.file_name());
        if p.is_dir() {
            walk(&p, &r, out)?;
        } else if p.is_file() {
            out.push(r);
        }
    }
    Ok(())
}

/// Relinks the executable `input` and its folder into `outdir`.
pub fn relink(
    input: &Path,
    outdir: &Path,
    opts: &RelinkOptions,
) -> Result<RelinkReport, RelinkError> {
    let data =
        std::fs::read(input).map_err(RelinkError::io(format!("reading {}", input.display())))?;
    let exe = parse(input, &data)?;
    if exe.is_module() {
        return Err(RelinkError::Layout(format!(
            "{} is a module; relink the title's executable (eboot.bin)",
            input.display()
        )));
    }
    let runtime_path = match &opts.runtime {
        Some(p) => p.clone(),
        None => runtime_exports::locate()?,
    };
    let runtime = runtime_exports::read(&runtime_path)?;
    let title_dir = input
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));

    let mut files = Vec::new();
    walk(title_dir, Path::new(""), &mut files)?;
    let mut modules = Vec::new();
    for rel in files.iter().filter(|r| is_module_file(r)) {
        let path = title_dir.join(rel);
        let bytes =
            std::fs::read(&path).map_err(RelinkError::io(format!("reading {}", path.display())))?;
        let img = parse(&path, &bytes)?;
        let start = rel.parent().and_then(|p| p.to_str()) == Some("sce_module");
        modules.push(ModuleFile {
            rel: rel.clone(),
            img,
            start,
        });
    }
    // Module name → file name, for the start modules that imports can bind to.
    let provided: BTreeMap<String, (String, BTreeSet<String>)> = modules
        .iter()
        .filter(|m| m.start)
        .filter_map(|m| {
            let name = m.img.own_module.as_ref()?.name.clone();
            let file = m.rel.file_name()?.to_string_lossy().into_owned();
            Some((
                name,
                (file, m.img.exports.iter().map(|e| e.nid.clone()).collect()),
            ))
        })
        .collect();

    let parent = outdir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(RelinkError::io(format!("creating {}", parent.display())))?;
    let tmp = tempfile::Builder::new()
        .prefix(".native5-relink-")
        .tempdir_in(parent)
        .map_err(RelinkError::io(format!(
            "creating a temporary folder in {}",
            parent.display()
        )))?;
    let mut report = RelinkReport::default();
    let mut registry = Vec::new();

    // The raw-syscall scan runs beside the conversion and writing: its verdict is only
    // needed before the output is installed, and a failure discards the temp folder.
    let scan_inputs: Vec<(String, &Image)> = std::iter::once(("app.elf".to_string(), &exe))
        .chain(modules.iter().map(|m| {
            let label = Path::new("app0")
                .join(&m.rel)
                .to_string_lossy()
                .into_owned();
            (label, &m.img)
        }))
        .collect();
    let scanner = (!opts.allow_syscalls).then_some(scan_inputs);
    let scan_all = |inputs: Vec<(String, &Image)>| -> Result<usize, RelinkError> {
        let mut decoded = 0;
        for (label, img) in inputs {
            let scan = crate::syscalls::scan_with(img, &analyze::code_starts(img), false);
            decoded += scan.decoded;
            if let Some(s) = scan.syscall {
                return Err(RelinkError::RawSyscall {
                    path: label,
                    address: s.address,
                    instruction: s.instruction,
                    near: s
                        .nearest_start
                        .map(|a| format!(", in the function at {a:#x}"))
                        .unwrap_or_default(),
                });
            }
        }
        Ok(decoded)
    };
    std::thread::scope(|scope| -> Result<(), RelinkError> {
        let scan_job = scanner.map(|inputs| scope.spawn(move || scan_all(inputs)));
        let mut convert = |img: &Image,
                           kind: Kind,
                           label: &str,
                           depth: usize|
         -> Result<emit::Emitted, RelinkError> {
            let filtering = opts.unused_filter != analyze::UnusedFilter::Keep;
            let mut dropped = std::collections::BTreeSet::new();
            if filtering {
                let reach =
                    crate::syscalls::scan_with(img, &analyze::reachability_starts(img), true);
                dropped = analyze::unused_imports(img, opts.unused_filter, &reach.rip_refs);
                report.dropped += dropped.len();
            }
            let mut bindings = BTreeMap::new();
            let mut needed = vec![RUNTIME_FILE.to_string()];
            let mut names = BTreeMap::new();
            for imp in &img.imports {
                let module = imp.module.clone();
                let b = match module.as_ref().and_then(|m| provided.get(m)) {
                    _ if dropped.contains(&imp.symbol) => Binding::Dropped,
                    Some((file, exports)) if exports.contains(&imp.nid) => {
                        if !needed.contains(file) {
                            needed.push(file.clone());
                        }
                        report.bound_modules += 1;
                        Binding::Module(file.clone())
                    }
                    _ if runtime.nids.contains(&imp.nid) => {
                        report.bound_runtime += 1;
                        Binding::Runtime
                    }
                    _ => Binding::Missing,
                };
                let name = opts.catalogue.name(&imp.nid).map(str::to_string);
                if let Some(n) = &name {
                    names.insert(imp.nid.clone(), n.clone());
                }
                registry.push(RegistryEntry {
                    binary: label.to_string(),
                    nid: imp.nid.clone(),
                    name: name.clone(),
                    module: imp.module.clone(),
                    library: imp.library.clone(),
                    class: match b {
                        Binding::Runtime if runtime.unimplemented.contains(&imp.nid) => {
                            "unimplemented stub"
                        }
                        Binding::Runtime => "implemented",
                        Binding::Module(_) => "module",
                        Binding::Missing => "absent",
                        Binding::Dropped => "dropped",
                    },
                });
                if b == Binding::Runtime && runtime.unimplemented.contains(&imp.nid) {
                    report
                        .unimplemented
                        .push((label.to_string(), imp.nid.clone(), name.clone()));
                }
                if b == Binding::Missing {
                    report
                        .stubbed
                        .push((label.to_string(), imp.nid.clone(), name));
                }
                bindings.insert(imp.symbol, b);
            }
            let up = "../".repeat(depth);
            let runpath = match kind {
                Kind::Executable => "$ORIGIN/libs:$ORIGIN/app0/sce_module".to_string(),
                Kind::Module => format!("$ORIGIN/{up}libs:$ORIGIN:$ORIGIN/{up}app0/sce_module"),
            };
            let soname = (kind == Kind::Module).then(|| {
                Path::new(label)
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
            let plan = EmitPlan {
                img,
                kind,
                needed,
                runpath,
                soname,
                bindings,
                names,
            };
            emit::emit(&plan)
        };
        let app = convert(&exe, Kind::Executable, "app.elf", 0)?;
        write_emitted(tmp.path(), "app.elf", &exe, &app, true)?;
        report.files.push("app.elf".into());
        for m in &modules {
            let rel = Path::new("app0").join(&m.rel);
            let label = rel.to_string_lossy().into_owned();
            let depth = rel.components().count() - 1;
            let emitted = convert(&m.img, Kind::Module, &label, depth)?;
            write_emitted(tmp.path(), &label, &m.img, &emitted, false)?;
            report.modules.push(label.clone());
            report.files.push(label);
        }
        for rel in files.iter().filter(|r| !is_module_file(r)) {
            let label = Path::new("app0").join(rel).to_string_lossy().into_owned();
            let src = title_dir.join(rel);
            let dst = tmp.path().join(&label);
            std::fs::create_dir_all(dst.parent().expect("under tmp"))
                .map_err(RelinkError::io(format!("creating {}", dst.display())))?;
            std::fs::copy(&src, &dst)
                .map_err(RelinkError::io(format!("copying {}", src.display())))?;
            report.files.push(label);
        }
        let rt = std::fs::read(&runtime_path).map_err(RelinkError::io(format!(
            "reading {}",
            runtime_path.display()
        )))?;
        let rt_label = format!("libs/{RUNTIME_FILE}");
        write_file(tmp.path(), &rt_label, &rt, true)?;
        report.files.push(rt_label);

        let start: Vec<String> = report
            .modules
            .iter()
            .filter(|m| Path::new(m).parent() == Some(Path::new("app0/sce_module")))
            .map(|m| format!("{m:?}"))
            .collect();
        let title = input
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let config = format!(
        "# Written by `native5 relink`. Per-title settings; see the README.\n\n\
         [title]\nsource = {:?}\nname = {:?}\n\n[modules]\n# Loaded and started before the title's entry, in this order.\nstart = [{}]\n",
        input.display().to_string(),
        title,
        start.join(", ")
    );
        write_file(tmp.path(), "native5.toml", config.as_bytes(), false)?;
        report.files.push("native5.toml".into());
        if opts.registry {
            let json = serde_json::to_vec_pretty(&registry).expect("registry serializes");
            write_file(tmp.path(), "imports.json", &json, false)?;
            report.files.push("imports.json".into());
        }
        if let Some(job) = scan_job {
            report.scanned_instructions += job.join().expect("the scan does not panic")?;
        }
        Ok(())
    })?;
    install(tmp, outdir)?;
    Ok(report)
}

fn write_emitted(
    root: &Path,
    rel: &str,
    img: &Image,
    e: &emit::Emitted,
    executable: bool,
) -> Result<(), RelinkError> {
    let path = root.join(rel);
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(RelinkError::io(format!("creating {}", p.display())))?;
    }
    let file = std::fs::File::create(&path)
        .map_err(RelinkError::io(format!("writing {}", path.display())))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    e.write_to(img, &mut w)
        .and_then(|()| std::io::Write::flush(&mut w))
        .map_err(RelinkError::io(format!("writing {}", path.display())))?;
    drop(w);
    if executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(RelinkError::io(format!("chmod {}", path.display())))?;
    }
    Ok(())
}

fn write_file(root: &Path, rel: &str, bytes: &[u8], executable: bool) -> Result<(), RelinkError> {
    let path = root.join(rel);
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(RelinkError::io(format!("creating {}", p.display())))?;
    }
    std::fs::write(&path, bytes).map_err(RelinkError::io(format!("writing {}", path.display())))?;
    if executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(RelinkError::io(format!("chmod {}", path.display())))?;
    }
    Ok(())
}

/// Moves the finished temporary folder to `outdir`, replacing an earlier native5 output.
fn install(tmp: tempfile::TempDir, outdir: &Path) -> Result<(), RelinkError> {
    if outdir.exists() {
        let ours = outdir.join("native5.toml").is_file()
            || std::fs::read_dir(outdir)
                .map(|mut d| d.next().is_none())
                .unwrap_or(false);
        if !ours {
            return Err(RelinkError::Layout(format!(
                "{} exists and is not a native5 output folder; choose another OUTDIR",
                outdir.display()
            )));
        }
        let old = tmp.path().with_extension("old");
        std::fs::rename(outdir, &old).map_err(RelinkError::io(format!(
            "moving {} aside",
            outdir.display()
        )))?;
        std::fs::rename(tmp.keep(), outdir)
            .map_err(RelinkError::io(format!("writing {}", outdir.display())))?;
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(tmp.keep(), outdir)
            .map_err(RelinkError::io(format!("writing {}", outdir.display())))?;
    }
    Ok(())
}
