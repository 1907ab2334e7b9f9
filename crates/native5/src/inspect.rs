//! `native5 inspect`: what a PS5/PS4 binary contains, as text or JSON.

use anyhow::{Context, Result};
use sce::image::{Container, Image};
use sce::self_file::SelfKind;
use sce::NidCatalogue;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Serialize)]
struct Report {
    file: String,
    container: String,
    #[serde(rename = "type")]
    e_type: String,
    module: bool,
    entry: u64,
    segments: Vec<SegmentOut>,
    needed_files: Vec<String>,
    own_module: Option<ModuleOut>,
    needed_modules: Vec<ModuleOut>,
    import_libraries: Vec<LibraryOut>,
    export_libraries: Vec<LibraryOut>,
    imports: Vec<ImportOut>,
    exports: Vec<ExportOut>,
    relocations: usize,
    plt_relocations: usize,
    sdk_version: Option<String>,
}

#[derive(Serialize)]
struct SegmentOut {
    #[serde(rename = "type")]
    p_type: String,
    flags: String,
    offset: u64,
    vaddr: u64,
    filesz: u64,
    memsz: u64,
    align: u64,
}

#[derive(Serialize)]
struct ModuleOut {
    id: u16,
    name: String,
    version: String,
}

#[derive(Serialize)]
struct LibraryOut {
    id: u16,
    name: String,
    version: u16,
    attributes: Option<u64>,
}

#[derive(Serialize)]
struct ImportOut {
    nid: String,
    library: Option<String>,
    module: Option<String>,
    name: Option<String>,
    kind: &'static str,
    weak: bool,
}

#[derive(Serialize)]
struct ExportOut {
    nid: String,
    library: Option<String>,
    module: Option<String>,
    name: Option<String>,
    kind: &'static str,
    value: u64,
    size: u64,
}

fn container_text(c: &Container) -> String {
    match c {
        Container::Elf => "ELF".into(),
        Container::FakeSelf(h) => format!(
            "fake SELF ({}, {} entries)",
            if h.kind == SelfKind::Ps5 {
                "PS5"
            } else {
                "PS4"
            },
            h.entries
        ),
    }
}

fn build(path: &Path, img: &Image, cat: &NidCatalogue) -> Report {
    let name_of = |nid: &str, plain: &Option<String>| {
        plain.clone().or_else(|| cat.name(nid).map(str::to_string))
    };
    let own = img.own_module.as_ref().map(|m| m.name.clone());
    let mut imports: Vec<ImportOut> = img
        .imports
        .iter()
        .map(|i| ImportOut {
            nid: i.nid.clone(),
            library: i.library.clone(),
            module: i.module.clone(),
            name: name_of(&i.nid, &i.plain_name),
            kind: i.kind.name(),
            weak: i.weak,
        })
        .collect();
    imports.sort_by(|a, b| a.nid.cmp(&b.nid).then(a.library.cmp(&b.library)));
    let mut exports: Vec<ExportOut> = img
        .exports
        .iter()
        .map(|e| ExportOut {
            nid: e.nid.clone(),
            library: e.library.clone(),
            module: own.clone(),
            name: name_of(&e.nid, &e.plain_name),
            kind: e.kind.name(),
            value: e.value,
            size: e.size,
        })
        .collect();
    exports.sort_by(|a, b| a.nid.cmp(&b.nid));
    let module_out = |m: &sce::Module| ModuleOut {
        id: m.id,
        name: m.name.clone(),
        version: format!("{}.{}", m.version_major, m.version_minor),
    };
    let lib_out = |l: &sce::Library| LibraryOut {
        id: l.id,
        name: l.name.clone(),
        version: l.version,
        attributes: l.attributes,
    };
    Report {
        file: path.display().to_string(),
        container: container_text(&img.container),
        e_type: img.type_name(),
        module: img.is_module(),
        entry: img.header.entry,
        segments: img
            .segments
            .iter()
            .map(|s| SegmentOut {
                p_type: sce::elf::segment_type_name(s.p_type),
                flags: s.flags_text(),
                offset: s.offset,
                vaddr: s.vaddr,
                filesz: s.filesz,
                memsz: s.memsz,
                align: s.align,
            })
            .collect(),
        needed_files: img.needed_files.clone(),
        own_module: img.own_module.as_ref().map(module_out),
        needed_modules: img.needed_modules.iter().map(module_out).collect(),
        import_libraries: img.import_libraries.iter().map(lib_out).collect(),
        export_libraries: img.export_libraries.iter().map(lib_out).collect(),
        imports,
        exports,
        relocations: img.relocations.len(),
        plt_relocations: img.plt_relocations.len(),
        sdk_version: img.param.map(|p| format!("{:#010x}", p.sdk_version)),
    }
}

/// Runs `native5 inspect`.
pub fn run(path: &Path, nids: Option<&Path>, json: bool) -> Result<()> {
    let data = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let img = Image::parse(&data).with_context(|| format!("{}", path.display()))?;
    let cat = crate::catalogue::load(nids)?;
    let report = build(path, &img, &cat);
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_text(&report);
    }
    Ok(())
}

fn print_text(r: &Report) {
    println!("file:      {}", r.file);
    println!("container: {}", r.container);
    println!("type:      {}", r.e_type);
    println!("entry:     {:#x}", r.entry);
    if let Some(v) = &r.sdk_version {
        println!("sdk:       {v}");
    }
    if let Some(m) = &r.own_module {
        println!("module:    {} (id {}, version {})", m.name, m.id, m.version);
    }
    println!("segments:");
    for s in &r.segments {
        println!(
            "  {:<17} {} offset {:#08x} vaddr {:#010x} filesz {:#08x} memsz {:#08x} align {:#x}",
            s.p_type, s.flags, s.offset, s.vaddr, s.filesz, s.memsz, s.align
        );
    }
    if !r.needed_modules.is_empty() {
        println!("needed modules:");
        for m in &r.needed_modules {
            println!("  {:<3} {} (version {})", m.id, m.name, m.version);
        }
    }
    if !r.import_libraries.is_empty() {
        println!("import libraries:");
        for l in &r.import_libraries {
            println!("  {:<3} {} (version {})", l.id, l.name, l.version);
        }
    }
    if !r.export_libraries.is_empty() {
        println!("export libraries:");
        for l in &r.export_libraries {
            println!("  {:<3} {} (version {})", l.id, l.name, l.version);
        }
    }
    let mut groups: BTreeMap<(String, String), Vec<&ImportOut>> = BTreeMap::new();
    for i in &r.imports {
        let key = (
            i.module.clone().unwrap_or_else(|| "-".into()),
            i.library.clone().unwrap_or_else(|| "-".into()),
        );
        groups.entry(key).or_default().push(i);
    }
    println!("imports: {}", r.imports.len());
    for ((module, library), list) in &groups {
        println!("  module {module}, library {library}:");
        for i in list {
            println!("    {} {}", i.nid, i.name.as_deref().unwrap_or("?"));
        }
    }
    println!("exports: {}", r.exports.len());
    for e in &r.exports {
        println!(
            "    {} {} [{}] {:#x} ({})",
            e.nid,
            e.name.as_deref().unwrap_or("?"),
            e.library.as_deref().unwrap_or("-"),
            e.value,
            e.kind
        );
    }
    println!(
        "relocations: {} (+{} PLT)",
        r.relocations, r.plt_relocations
    );
}
