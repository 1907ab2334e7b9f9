//! Stub libraries: one small shared object per console module, defining the symbols a
//! title imports from it, so that ld.lld links the title as it would against the real
//! module (dynamic symbols, JUMP_SLOT and GLOB_DAT relocations, DT_NEEDED).
//!
//! Every stub symbol has default visibility, functions are STT_FUNC and data objects
//! STT_OBJECT with a size, as the console's modules export them. Stub bodies are never run:
//! the converted title binds to the real library (or native5's runtime) by NID.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::table::{is_symbol_name, SymbolKind};

/// One symbol a stub defines.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct StubSymbol {
    /// Symbol name (checked by [`is_symbol_name`] before it gets here).
    pub name: String,
    /// Function or object.
    pub kind: SymbolKind,
}

/// The assembly text of a stub defining `symbols`.
///
/// Names are emitted unquoted; callers only pass names that passed
/// [`is_symbol_name`], which the assembler accepts as they are.
pub fn assembly(module: &str, symbols: &BTreeSet<StubSymbol>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# native5 sdk stub for module {module}; generated, never run."
    );
    let _ = writeln!(s, "\t.text");
    for sym in symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Function && is_symbol_name(&s.name))
    {
        let n = &sym.name;
        // ud2: a stub body that somehow runs traps instead of returning garbage.
        let _ = writeln!(
            s,
            "\t.globl {n}\n\t.type {n},@function\n{n}:\n\tud2\n\t.size {n},2"
        );
    }
    let _ = writeln!(s, "\t.data");
    for sym in symbols {
        let SymbolKind::Object { size } = sym.kind else {
            continue;
        };
        if !is_symbol_name(&sym.name) {
            continue;
        }
        let n = &sym.name;
        let size = size.max(1);
        let _ = writeln!(
            s,
            "\t.balign 8\n\t.globl {n}\n\t.type {n},@object\n\t.size {n},{size}\n{n}:\n\t.zero {size}"
        );
    }
    // The stubs need no executable stack; say so, or ld.lld warns about it.
    let _ = writeln!(s, "\t.section .note.GNU-stack,\"\",@progbits");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assembly_marks_kinds_and_sizes() {
        let mut syms = BTreeSet::new();
        syms.insert(StubSymbol {
            name: "printf".into(),
            kind: SymbolKind::Function,
        });
        syms.insert(StubSymbol {
            name: "__stack_chk_guard".into(),
            kind: SymbolKind::Object { size: 8 },
        });
        let text = assembly("libc", &syms);
        assert!(text.contains(".type printf,@function"));
        assert!(text.contains(".type __stack_chk_guard,@object"));
        assert!(text.contains(".size __stack_chk_guard,8"));
        let data = text.find(".data").unwrap();
        assert!(text.find("__stack_chk_guard:").unwrap() > data);
        assert!(text.find("printf:").unwrap() < data);
    }
}
