//! Declares the ELF version nodes (one per PS5 module) that assembly thunks use to
//! export their NIDs: rustc's own version script hides `global_asm!` symbols, but a
//! symbol given a default version with `.symver NAME@@module` stays exported.
fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let map = std::path::Path::new(&dir).join("version-nodes.map");
    println!("cargo:rerun-if-changed={}", map.display());
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        map.display()
    );
}
