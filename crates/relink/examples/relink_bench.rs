//! Relink benchmark: generates a large title (≥ 200 MiB of code and data, 50,000
//! imports, 1,000,000 relocations), relinks it, and reports the time as a ratio to
//! reading and writing the same bytes from this process, in the same run.
//!
//! `cargo build --release -p runtime && cargo run --release -p relink --example relink_bench`
//! (`NATIVE5_RUNTIME` points at another runtime build; `-- --quick` makes a 20 MiB title).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const PAGE: u64 = 0x4000;

/// Builds a plain x86-64 PIE with the given sizes, for `sce::writer` to convert.
fn plain_elf(code_size: u64, data_size: u64, imports: usize, relocs: usize) -> Vec<u8> {
    let names: Vec<String> = (0..imports).map(|i| format!("bench_import_{i}")).collect();
    let mut dynstr = vec![0u8];
    let mut name_off = Vec::new();
    for n in &names {
        name_off.push(dynstr.len() as u32);
        dynstr.extend_from_slice(n.as_bytes());
        dynstr.push(0);
    }
    let nsyms = imports + 1;
    let mut dynsym = vec![0u8; 24];
    for &o in &name_off {
        let mut s = [0u8; 24];
        s[..4].copy_from_slice(&o.to_le_bytes());
        s[4] = 0x12; // GLOBAL FUNC
        dynsym.extend_from_slice(&s);
    }
    let mut hash = Vec::new();
    for w in [1u32, nsyms as u32] {
        hash.extend_from_slice(&w.to_le_bytes());
    }
    hash.extend_from_slice(&0u32.to_le_bytes());
    hash.extend(std::iter::repeat_n(0u8, 4 * nsyms));

    // Layout: headers | code (RX) | data (RW: GOT + data) | tables (R).
    let code_va = PAGE;
    let data_va = code_va + code_size.next_multiple_of(PAGE);
    let got_va = data_va;
    let tables_va = data_va + data_size.next_multiple_of(PAGE);
    let mut tables = Vec::new();
    let mut place = |b: &[u8]| {
        tables.resize(tables.len().next_multiple_of(8), 0);
        let at = tables_va + tables.len() as u64;
        tables.extend_from_slice(b);
        at
    };
    let strtab_va = place(&dynstr);
    let symtab_va = place(&dynsym);
    let hash_va = place(&hash);
    let mut jmprel = Vec::with_capacity(imports * 24);
    for i in 0..imports {
        jmprel.extend_from_slice(&(got_va + 8 * i as u64).to_le_bytes());
        jmprel.extend_from_slice(&(((i as u64 + 1) << 32) | 7).to_le_bytes());
        jmprel.extend_from_slice(&0i64.to_le_bytes());
    }
    let mut rela = Vec::with_capacity(relocs * 24);
    let slots = (data_size / 8).saturating_sub(imports as u64 + 1).max(1);
    for i in 0..relocs as u64 {
        let at = got_va + 8 * (imports as u64 + i % slots);
        rela.extend_from_slice(&at.to_le_bytes());
        rela.extend_from_slice(&8u64.to_le_bytes()); // RELATIVE
        rela.extend_from_slice(&((code_va + (i * 64) % code_size) as i64).to_le_bytes());
    }
    let jmprel_va = place(&jmprel);
    let rela_va = place(&rela);
    let dynamic: Vec<(u64, u64)> = vec![
        (5, strtab_va),
        (10, dynstr.len() as u64),
        (6, symtab_va),
        (11, 24),
        (4, hash_va),
        (7, rela_va),
        (8, rela.len() as u64),
        (9, 24),
        (23, jmprel_va),
        (2, jmprel.len() as u64),
        (20, 7),
        (3, got_va),
        (0, 0),
    ];
    let dyn_bytes: Vec<u8> = dynamic
        .iter()
        .flat_map(|(t, v)| t.to_le_bytes().into_iter().chain(v.to_le_bytes()))
        .collect();
    let dynamic_va = place(&dyn_bytes);
    let tables_len = tables.len() as u64;

    let file_len = tables_va + tables_len;
    let mut f = vec![0u8; file_len as usize];
    // Code: a long straight run of real instructions, ending in `ret`. The immediate of
    // `mov eax, 0x050f` holds the bytes of `syscall`, as real code and .rodata do by
    // chance, so the scan cannot skip decoding.
    let pattern = [
        0x48, 0x8b, 0x05, 0, 0, 0, 0, 0x48, 0x01, 0xd8, 0xb8, 0x0f, 0x05, 0, 0, 0x90,
    ];
    let code = &mut f[code_va as usize..(code_va + code_size) as usize];
    for (i, b) in code.iter_mut().enumerate() {
        *b = pattern[i % pattern.len()];
    }
    let tail = code.len() - 16;
    code[tail..].fill(0xc3);
    // Data: a pattern, so the bytes are not all zero.
    for (i, b) in f[data_va as usize..(data_va + data_size) as usize]
        .iter_mut()
        .enumerate()
    {
        *b = i as u8;
    }
    f[tables_va as usize..].copy_from_slice(&tables);
    // Headers.
    let phdrs = [
        (1u32, 4u32, 0u64, 0u64, PAGE, PAGE),
        (1, 5, code_va, code_va, code_size, code_size),
        (1, 6, data_va, data_va, data_size, data_size),
        (1, 4, tables_va, tables_va, tables_len, tables_len),
        (
            2,
            6,
            dynamic_va,
            dynamic_va,
            dyn_bytes.len() as u64,
            dyn_bytes.len() as u64,
        ),
    ];
    f[..4].copy_from_slice(b"\x7fELF");
    f[4] = 2;
    f[5] = 1;
    f[6] = 1;
    f[16..18].copy_from_slice(&3u16.to_le_bytes());
    f[18..20].copy_from_slice(&62u16.to_le_bytes());
    f[20..24].copy_from_slice(&1u32.to_le_bytes());
    f[24..32].copy_from_slice(&code_va.to_le_bytes());
    f[32..40].copy_from_slice(&64u64.to_le_bytes());
    f[52..54].copy_from_slice(&64u16.to_le_bytes());
    f[54..56].copy_from_slice(&56u16.to_le_bytes());
    f[56..58].copy_from_slice(&(phdrs.len() as u16).to_le_bytes());
    for (i, (t, fl, off, va, fs, ms)) in phdrs.iter().enumerate() {
        let p = sce::elf::ProgramHeader {
            p_type: *t,
            flags: *fl,
            offset: *off,
            vaddr: *va,
            paddr: *va,
            filesz: *fs,
            memsz: *ms,
            align: if *t == 1 { PAGE } else { 8 },
        };
        let o = 64 + i * 56;
        f[o..o + 56].copy_from_slice(&p.to_bytes());
    }
    // Keep the names for the writer's import table.
    let _ = names;
    f
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (code, data, imports, relocs) = if quick {
        (10 << 20, 10 << 20, 5_000, 100_000)
    } else {
        (100 << 20, 100 << 20, 50_000, 1_000_000)
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let title = dir.path().join("title");
    std::fs::create_dir_all(&title).unwrap();
    let plain = plain_elf(code, data, imports, relocs);
    let table: BTreeMap<String, sce::writer::ImportBinding> = (0..imports)
        .map(|i| {
            (
                format!("bench_import_{i}"),
                sce::writer::ImportBinding {
                    module: "libkernel".into(),
                    library: "libkernel".into(),
                },
            )
        })
        .collect();
    let opts = sce::writer::WriteOptions {
        kind: sce::writer::OutputKind::Executable,
        sdk_version: 0x0550_0000,
        module_name: "bench".into(),
        file_name: "eboot.bin".into(),
        imports: table,
    };
    let sce_bytes = sce::writer::write(&plain, &opts).expect("writer");
    let input = title.join("eboot.bin");
    std::fs::write(&input, &sce_bytes).unwrap();
    let img = sce::Image::parse(&sce_bytes).unwrap();
    println!(
        "title: {:.1} MiB, {} imports, {} relocations",
        sce_bytes.len() as f64 / (1 << 20) as f64,
        img.imports.len(),
        img.relocations.len() + img.plt_relocations.len()
    );
    drop(img);

    let ropts = relink::RelinkOptions::default();
    let mut base = Vec::new();
    let mut relink_t = Vec::new();
    for round in 0..3 {
        let copy = dir.path().join(format!("copy-{round}"));
        let t = Instant::now();
        let bytes = std::fs::read(&input).unwrap();
        std::fs::write(&copy, &bytes).unwrap();
        base.push(t.elapsed());
        drop(bytes);
        std::fs::remove_file(&copy).unwrap();

        let out = dir.path().join(format!("out-{round}"));
        let t = Instant::now();
        relink::relink(&input, &out, &ropts).expect("relink");
        relink_t.push(t.elapsed());
        std::fs::remove_dir_all(&out).unwrap();
    }
    let (b, r) = (median(base), median(relink_t));
    println!(
        "read+write same bytes: {:.3} s (median of 3)",
        b.as_secs_f64()
    );
    println!(
        "relink:                {:.3} s (median of 3)",
        r.as_secs_f64()
    );
    println!(
        "ratio relink / read+write: {:.2}x",
        r.as_secs_f64() / b.as_secs_f64()
    );
}
