//! Generates the `Opcode` enum from `data/isa.txt`, the same file the runtime
//! table reads, so each data line is exactly one enum variant (in order).

use std::collections::HashSet;
use std::fmt::Write as _;

fn camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split('_') {
        let mut c = part.chars();
        if let Some(f) = c.next() {
            out.extend(f.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    out
}

fn main() {
    println!("cargo:rerun-if-changed=data/isa.txt");
    let text = std::fs::read_to_string("data/isa.txt").unwrap_or_default();
    let mut seen = HashSet::new();
    let mut body = String::new();
    let mut names = String::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut it = line.split(' ');
        let enc = it.next().unwrap_or("");
        let mn = it.next().unwrap_or("");
        let mut name = camel(mn);
        if !seen.insert(name.clone()) {
            name = format!("{}{}", name, camel(&enc.to_lowercase()));
            seen.insert(name.clone());
        }
        writeln!(body, "    /// `{mn}` ({enc})\n    {name},").unwrap();
        writeln!(names, "    Opcode::{name},").unwrap();
    }
    let out = format!(
        "/// Every opcode the decoder knows, one per line of `data/isa.txt`.\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         #[repr(u16)]\npub enum Opcode {{\n{body}}}\n\n\
         /// All opcodes in table order (`ALL_OPCODES[i] as usize == i`).\n\
         pub static ALL_OPCODES: &[Opcode] = &[\n{names}];\n"
    );
    let dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(format!("{dir}/opcode_enum.rs"), out).expect("write opcode_enum.rs");
}
