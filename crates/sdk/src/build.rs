//! The build pipeline: compile, find the imports, generate stubs, link, convert.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use object::read::elf::ElfFile64;
use object::{Endianness, Object, ObjectSymbol, ObjectSymbolTable, RelocationFlags};
use sce::writer::{ImportBinding, OutputKind, WriteOptions};

use crate::files::{write_tree, CRT_SOURCES, HEADERS};
use crate::stubs::{self, StubSymbol};
use crate::table::{ExportTable, Placement, SymbolKind};
use crate::{SdkError, Toolchain, SDK_VERSION};

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// C (`.c`), C++ (`.cc`, `.cpp`, `.cxx`, `.c++`), assembly (`.s`, `.S`) sources, and
    /// prebuilt objects (`.o`, compiled for `x86_64-sie-ps5`).
    pub sources: Vec<PathBuf>,
    /// The file to write: the PS5 executable, or the `.prx` when `module` is set. Its
    /// stem names the module, its file name is recorded as `DT_SCE_FILENAME`.
    pub output: PathBuf,
    /// Build a module (`.prx`, linked `-shared`) instead of an executable.
    pub module: bool,
    /// Extra compiler flags, passed after the sdk's own (so they can override them).
    pub cflags: Vec<String>,
    /// Keep the work folder (objects, stubs, the linked ELF) and report where it is.
    pub keep_temps: bool,
    /// Print each command line on stderr before running it.
    pub verbose: bool,
    /// The compiler and linker to run.
    pub toolchain: Toolchain,
    /// PS5 modules (`.prx`, e.g. built by the sdk with `module`) that the title links
    /// against: a symbol the title imports whose NID one of them exports binds to it.
    pub modules: Vec<PathBuf>,
}

impl BuildOptions {
    /// Options to build `sources` into the executable `output`, with no extra flags.
    pub fn new(
        sources: impl IntoIterator<Item = impl Into<PathBuf>>,
        output: impl Into<PathBuf>,
    ) -> Self {
        BuildOptions {
            sources: sources.into_iter().map(Into::into).collect(),
            output: output.into(),
            module: false,
            cflags: Vec::new(),
            keep_temps: false,
            verbose: false,
            toolchain: Toolchain::default(),
            modules: Vec::new(),
        }
    }
}

/// A title linked but not yet converted: a normal x86-64 PIE or shared object.
#[derive(Debug, Clone)]
pub struct Linked {
    /// The linked ELF, as ld.lld wrote it.
    pub elf: Vec<u8>,
    /// What the sce writer needs to convert it (kind, SDK version, names, imports).
    pub write_options: WriteOptions,
    /// The work folder, when [`BuildOptions::keep_temps`] is set.
    pub work_dir: Option<PathBuf>,
}

/// What [`build`] produced.
#[derive(Debug, Clone)]
pub struct BuildOutput {
    /// The PS5-format file written.
    pub output: PathBuf,
    /// Every imported symbol and the console module and library it was bound to.
    pub imports: BTreeMap<String, ImportBinding>,
    /// The work folder, when [`BuildOptions::keep_temps`] is set.
    pub work_dir: Option<PathBuf>,
}

/// Compiles, links and converts a title, and writes it atomically to `opts.output`.
///
/// Nothing is written at `opts.output` unless every step succeeds: the file is written
/// beside it under a temporary name and renamed into place.
pub fn build(opts: &BuildOptions) -> Result<BuildOutput, SdkError> {
    let linked = link(opts)?;
    let bytes = sce::writer::write(&linked.elf, &linked.write_options)?;
    let dir = match opts.output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(SdkError::io(dir))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".native5-sdk-")
        .tempfile_in(dir)
        .map_err(SdkError::io(dir))?;
    tmp.write_all(&bytes).map_err(SdkError::io(tmp.path()))?;
    tmp.persist(&opts.output)
        .map_err(|e| SdkError::io(&opts.output)(e.error))?;
    Ok(BuildOutput {
        output: opts.output.clone(),
        imports: linked.write_options.imports,
        work_dir: linked.work_dir,
    })
}

/// How a source file is built.
enum SourceKind {
    /// Compiled by clang (C, C++ or assembly; clang tells them apart by extension).
    Compile,
    /// Already an object: linked as it is.
    Object,
}

fn source_kind(path: &Path) -> Result<SourceKind, SdkError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "c" | "cc" | "cpp" | "cxx" | "c++" | "C" | "s" | "S" => Ok(SourceKind::Compile),
        "o" => Ok(SourceKind::Object),
        _ => Err(SdkError::UnknownSourceKind(path.to_path_buf())),
    }
}

/// The flags every compilation gets, before the user's.
///
/// - `--target=x86_64-sie-ps5`: the console's ABI and defaults (stack protector, hidden
///   visibility, `.ctors`, 16-bit `wchar_t`, `__PROSPERO__`).
/// - `-nostdlibinc -nostdinc++ -isystem <sdk include>`: the sdk's PS5-ABI headers and
///   clang's own freestanding ones (stddef, stdint, stdarg …), never the host's glibc.
/// - `-fno-direct-access-external-data`: data imports such as `__stack_chk_guard` are
///   reached through the GOT (GLOB_DAT), never copied (COPY relocations do not exist on
///   the console). It is already clang's default for PIC; saying it keeps it so.
fn base_cflags(include: &Path) -> Vec<OsString> {
    let mut v: Vec<OsString> = [
        "--target=x86_64-sie-ps5",
        "-nostdlibinc",
        "-nostdinc++",
        "-fno-direct-access-external-data",
        "-isystem",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    v.push(include.into());
    v
}

/// Compiles and links a title and works out its imports, without converting it.
pub fn link(opts: &BuildOptions) -> Result<Linked, SdkError> {
    if opts.sources.is_empty() {
        return Err(SdkError::NoSources);
    }
    let file_name = opts
        .output
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or(SdkError::BadOutputPath {
            path: opts.output.clone(),
            problem: "the output needs a UTF-8 file name",
        })?
        .to_string();
    let module_name = Path::new(&file_name)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .ok_or(SdkError::BadOutputPath {
            path: opts.output.clone(),
            problem: "the output file name has no stem to name the module",
        })?
        .to_string();
    let kinds = opts
        .sources
        .iter()
        .map(|s| source_kind(s))
        .collect::<Result<Vec<_>, _>>()?;
    for s in &opts.sources {
        if !s.is_file() {
            return Err(SdkError::Io {
                path: s.clone(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such source file"),
            });
        }
    }

    let tmp = tempfile::Builder::new()
        .prefix("native5-sdk-")
        .tempdir()
        .map_err(SdkError::io(std::env::temp_dir()))?;
    let work = tmp.path().to_path_buf();
    let tc = &opts.toolchain;
    let v = opts.verbose;
    let include = work.join("include");
    let crt = work.join("crt");
    let objdir = work.join("obj");
    let stubdir = work.join("stubs");
    for (dir, files) in [(&include, HEADERS), (&crt, CRT_SOURCES)] {
        write_tree(dir, files).map_err(SdkError::io(dir))?;
    }
    std::fs::create_dir_all(&objdir).map_err(SdkError::io(&objdir))?;
    std::fs::create_dir_all(&stubdir).map_err(SdkError::io(&stubdir))?;
    let base = base_cflags(&include);

    // The crt: optimised, and without a stack protector of its own (it runs before and
    // after the title, and needs no guard).
    let start = if opts.module { "crtmodule" } else { "crt1" };
    let mut args = base.clone();
    args.extend(["-O2", "-fno-stack-protector", "-c"].map(OsString::from));
    for f in ["crtbegin", start, "crtend"] {
        args.push(format!("{f}.c").into());
    }
    tc.run(&tc.clang, &args, Some(&crt), v)?;
    let crt_obj = |f: &str| crt.join(format!("{f}.o"));

    let mut objects = Vec::new();
    for (i, (src, kind)) in opts.sources.iter().zip(&kinds).enumerate() {
        match kind {
            SourceKind::Object => objects.push(src.clone()),
            SourceKind::Compile => {
                let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or("src");
                let out = objdir.join(format!("{i}-{stem}.o"));
                let mut args = base.clone();
                args.extend(opts.cflags.iter().map(OsString::from));
                args.extend([OsString::from("-c"), src.into(), "-o".into(), (&out).into()]);
                tc.run(&tc.clang, &args, None, v)?;
                objects.push(out);
            }
        }
    }

    // What the title needs from the console: undefined in every object and defined in
    // none of them.
    let mut all_objects = vec![crt_obj("crtbegin"), crt_obj(start), crt_obj("crtend")];
    all_objects.extend(objects.iter().cloned());
    let mut defined = BTreeSet::new();
    let mut undefined: BTreeMap<String, bool> = BTreeMap::new();
    for obj in &all_objects {
        let data = std::fs::read(obj).map_err(SdkError::io(obj))?;
        let file = ElfFile64::<Endianness>::parse(&*data).map_err(|e| SdkError::BadElf {
            path: obj.clone(),
            problem: e.to_string(),
        })?;
        for sym in file.symbols() {
            let Ok(name) = sym.name() else { continue };
            if name.is_empty() || sym.is_local() {
                continue;
            }
            if sym.is_undefined() {
                let weak = undefined.entry(name.to_string()).or_insert(true);
                *weak &= sym.is_weak();
            } else {
                defined.insert(name.to_string());
            }
        }
    }
    let table = &with_linked_modules(ExportTable::builtin(), &opts.modules, undefined.keys())?;
    let mut per_module: BTreeMap<&str, BTreeSet<StubSymbol>> = BTreeMap::new();
    let mut unknown = Vec::new();
    for (name, weak) in &undefined {
        if defined.contains(name) {
            continue;
        }
        match table.get(name) {
            Some(p) => {
                per_module.entry(&p.module).or_default().insert(StubSymbol {
                    name: name.clone(),
                    kind: p.kind,
                });
            }
            None if name == "main" && !opts.module => return Err(SdkError::NoMain),
            // An unresolved weak reference is allowed; it stays 0 at run time.
            None if *weak => {}
            None => unknown.push(name.clone()),
        }
    }
    if !unknown.is_empty() {
        return Err(SdkError::UnknownSymbols(unknown));
    }

    // One stub per needed module: assembled in one clang run, linked one by one.
    let mut stub_libs = Vec::new();
    if !per_module.is_empty() {
        let mut args: Vec<OsString> = ["--target=x86_64-sie-ps5", "-c"].map(OsString::from).into();
        for (module, syms) in &per_module {
            let src = stubdir.join(format!("{module}.s"));
            std::fs::write(&src, stubs::assembly(module, syms)).map_err(SdkError::io(&src))?;
            args.push(format!("{module}.s").into());
        }
        tc.run(&tc.clang, &args, Some(&stubdir), v)?;
        for module in per_module.keys() {
            let so = stubdir.join(format!("{module}.so"));
            let args: Vec<OsString> = vec![
                "-shared".into(),
                "-soname".into(),
                format!("{module}.prx").into(),
                "-o".into(),
                (&so).into(),
                stubdir.join(format!("{module}.o")).into(),
            ];
            tc.run(&tc.lld, &args, None, v)?;
            stub_libs.push(so);
        }
    }

    // The link. crtbegin.o first and crtend.o last, under those names: see crt/crtbegin.c.
    let linked_path = work.join(if opts.module {
        "linked.so"
    } else {
        "linked.elf"
    });
    let mut args: Vec<OsString> = Vec::new();
    if opts.module {
        args.extend(["-shared", "--no-undefined", "-soname"].map(OsString::from));
        args.push(file_name.clone().into());
    } else {
        args.extend(["-pie", "--no-dynamic-linker"].map(OsString::from));
    }
    // PS5 pages are 16 KiB; the unwinder needs the eh_frame header.
    args.extend(["--eh-frame-hdr", "-z", "max-page-size=0x4000", "-o"].map(OsString::from));
    args.push((&linked_path).into());
    args.push(crt_obj("crtbegin").into());
    args.push(crt_obj(start).into());
    args.extend(objects.iter().map(OsString::from));
    args.extend(stub_libs.iter().map(OsString::from));
    args.push(crt_obj("crtend").into());
    tc.run(&tc.lld, &args, None, v)?;

    let elf = std::fs::read(&linked_path).map_err(SdkError::io(&linked_path))?;
    let imports = check_linked(&linked_path, &elf, table, opts.module)?;
    let write_options = WriteOptions {
        kind: if opts.module {
            OutputKind::Module
        } else {
            OutputKind::Executable
        },
        sdk_version: SDK_VERSION,
        module_name,
        file_name,
        imports,
    };
    let work_dir = if opts.keep_temps {
        Some(tmp.keep())
    } else {
        None
    };
    Ok(Linked {
        elf,
        write_options,
        work_dir,
    })
}

/// The built-in table plus, for each name the title needs that the table lacks, the
/// linked module whose exports hold that name's NID.
fn with_linked_modules<'a>(
    builtin: &ExportTable,
    modules: &[PathBuf],
    wanted: impl Iterator<Item = &'a String>,
) -> Result<ExportTable, SdkError> {
    let mut table = builtin.clone();
    if modules.is_empty() {
        return Ok(table);
    }
    let mut exports: Vec<(String, String, BTreeMap<String, sce::SymbolKind>)> = Vec::new();
    for path in modules {
        let data = std::fs::read(path).map_err(SdkError::io(path))?;
        let img = sce::Image::parse(&data).map_err(|e| SdkError::BadElf {
            path: path.clone(),
            problem: e.to_string(),
        })?;
        let module = img
            .own_module
            .as_ref()
            .map(|m| m.name.clone())
            .ok_or_else(|| SdkError::BadElf {
                path: path.clone(),
                problem: "not a PS5 module: it has no DT_SCE_MODULE_INFO".into(),
            })?;
        let library = img
            .export_libraries
            .first()
            .map(|l| l.name.clone())
            .unwrap_or(module.clone());
        let nids = img
            .exports
            .iter()
            .map(|e| (e.nid.clone(), e.kind))
            .collect();
        exports.push((module, library, nids));
    }
    for name in wanted {
        if table.get(name).is_some() {
            continue;
        }
        let nid = sce::nid_of(name);
        for (module, library, nids) in &exports {
            let kind = match nids.get(&nid) {
                Some(sce::SymbolKind::Func) => SymbolKind::Function,
                Some(sce::SymbolKind::Object) => SymbolKind::Object { size: 8 },
                Some(_) | None => continue,
            };
            table.insert(
                name.clone(),
                Placement {
                    module: module.clone(),
                    library: library.clone(),
                    kind,
                },
            );
            break;
        }
    }
    Ok(table)
}

/// Reads the linked ELF back: the placement of each dynamic import, and the checks that
/// the console format needs (no copy relocations; module entry points exported).
fn check_linked(
    path: &Path,
    elf: &[u8],
    table: &ExportTable,
    module: bool,
) -> Result<BTreeMap<String, ImportBinding>, SdkError> {
    let bad = |e: object::Error| SdkError::BadElf {
        path: path.to_path_buf(),
        problem: e.to_string(),
    };
    let file = ElfFile64::<Endianness>::parse(elf).map_err(bad)?;
    let mut imports = BTreeMap::new();
    let mut unknown = Vec::new();
    let mut exported = BTreeSet::new();
    for sym in file.dynamic_symbols() {
        let name = sym.name().map_err(bad)?;
        if name.is_empty() {
            continue;
        }
        if !sym.is_undefined() {
            exported.insert(name.to_string());
            continue;
        }
        match table.get(name) {
            Some(p) => {
                imports.insert(
                    name.to_string(),
                    ImportBinding {
                        module: p.module.clone(),
                        library: p.library.clone(),
                    },
                );
            }
            None if sym.is_weak() => {}
            None => unknown.push(name.to_string()),
        }
    }
    if !unknown.is_empty() {
        return Err(SdkError::UnknownSymbols(unknown));
    }
    const R_X86_64_COPY: u32 = 5;
    for (_, rel) in file.dynamic_relocations().into_iter().flatten() {
        if let RelocationFlags::Elf { r_type } = rel.flags() {
            if r_type == R_X86_64_COPY {
                let name = match rel.target() {
                    object::RelocationTarget::Symbol(i) => file
                        .dynamic_symbol_table()
                        .and_then(|t| t.symbol_by_index(i).ok())
                        .and_then(|s| s.name().ok().map(str::to_string))
                        .unwrap_or_else(|| format!("symbol #{}", i.0)),
                    _ => "?".to_string(),
                };
                return Err(SdkError::CopyRelocation(name));
            }
        }
    }
    if module {
        for entry in ["module_start", "module_stop"] {
            if !exported.contains(entry) {
                return Err(SdkError::HiddenModuleEntry(entry.to_string()));
            }
        }
    }
    Ok(imports)
}
