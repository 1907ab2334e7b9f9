//! Every committed corpus shader through the whole chain on lavapipe: recompile its
//! RDNA code, validate the SPIR-V, run it and the glslang reference on the same inputs,
//! compare every buffer. No RADV is needed: the RDNA code is committed.

use std::path::PathBuf;

fn corpus() -> Vec<PathBuf> {
    let dir = testkit::workspace_root().join("tests/shaders/compute");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/shaders/compute")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_entry_is_current() {
    for c in corpus() {
        let e = gpu::oracle::load_entry(&c).expect("readable entry");
        assert!(
            e.is_some(),
            "{}: corpus entry missing or stale; run `native5-shader-oracle regen {}`",
            c.display(),
            c.display()
        );
    }
}

#[test]
fn corpus_passes_on_lavapipe() {
    let dev = match gpu::device::Device::open(None) {
        Ok(d) => d,
        Err(e) if !gpu::vulkan_required() => {
            eprintln!("skipping corpus_passes_on_lavapipe: no Vulkan device ({e})");
            return;
        }
        Err(e) => panic!("no Vulkan device and NATIVE5_REQUIRE_VULKAN=1: {e}"),
    };
    let files = corpus();
    let mut failed = Vec::new();
    let (mut fast, mut exact) = (0, 0);
    for f in &files {
        match gpu::check::check_file_on(&dev, f, &gpu::check::CheckOptions::default()) {
            Ok(r) if r.passed() && r.from_corpus => match r.mapping {
                Some(shader::Mapping::Subgroup) => fast += 1,
                _ => exact += 1,
            },
            Ok(r) if !r.from_corpus => failed.push(format!("{}: not from the corpus", f.display())),
            Ok(r) => failed.push(r.to_string()),
            Err(e) => failed.push(format!("{}: {e:#}", f.display())),
        }
    }
    eprintln!(
        "corpus: {}/{} pass ({fast} on the subgroup mapping, {exact} on the workgroup mapping)",
        files.len() - failed.len(),
        files.len()
    );
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    // Both wave mappings must stay exercised.
    assert!(fast > 0 && exact > 0, "fast {fast}, exact {exact}");
}

#[test]
fn check_compiles_a_new_file_through_radv() {
    let icd = std::path::Path::new("/usr/share/vulkan/icd.d/radeon_icd.x86_64.json");
    if !icd.exists() || gpu::device::Device::open(None).is_err() {
        assert!(
            !gpu::vulkan_required(),
            "RADV or lavapipe missing and NATIVE5_REQUIRE_VULKAN=1"
        );
        eprintln!("skipping check_compiles_a_new_file_through_radv: no RADV ICD or no device");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("fresh.comp");
    std::fs::write(
        &f,
        "#version 450\n// native5-test: groups=2,1,1\n// buffer 0: 64 bytes index\n\
         layout(local_size_x = 8) in;\n\
         layout(set = 0, binding = 0) buffer A { uint a[]; };\n\
         void main() { uint i = gl_GlobalInvocationID.x; a[i] = a[i] * 5u + 1u; }\n",
    )
    .expect("write");
    let r = gpu::check::check_file(&f).expect("check runs");
    assert!(r.passed() && !r.from_corpus, "{r}");
}

#[test]
fn exact_mapping_on_a_corpus_sample() {
    // Every fourth corpus shader again, forced onto the workgroup mapping, so the exact
    // path is checked on ordinary code too (the full set would double the test time).
    let Ok(dev) = gpu::device::Device::open(None) else {
        assert!(
            !gpu::vulkan_required(),
            "no Vulkan device and NATIVE5_REQUIRE_VULKAN=1"
        );
        eprintln!("skipping exact_mapping_on_a_corpus_sample: no Vulkan device");
        return;
    };
    let opts = gpu::check::CheckOptions {
        force_workgroup_mapping: true,
        ..Default::default()
    };
    let mut failed = Vec::new();
    for f in corpus().iter().step_by(4) {
        match gpu::check::check_file_on(&dev, f, &opts) {
            Ok(r) if r.passed() => assert_eq!(r.mapping, Some(shader::Mapping::Workgroup)),
            Ok(r) => failed.push(r.to_string()),
            Err(e) => failed.push(format!("{}: {e:#}", f.display())),
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
