//! Building ELF string tables and SysV hash tables, for the SCE writer and for the
//! relinker's host dynamic section alike.

use std::collections::BTreeMap;

/// A string table that stores each string once; offset 0 is the empty string.
#[derive(Debug, Clone)]
pub struct StringTable {
    bytes: Vec<u8>,
    index: BTreeMap<String, u32>,
}

impl Default for StringTable {
    fn default() -> Self {
        StringTable {
            bytes: vec![0],
            index: BTreeMap::new(),
        }
    }
}

impl StringTable {
    /// An empty table (holding only the empty string).
    pub fn new() -> Self {
        Self::default()
    }

    /// The offset of `s`, adding it if it is new.
    pub fn add(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return 0;
        }
        if let Some(&o) = self.index.get(s) {
            return o;
        }
        let o = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.index.insert(s.to_string(), o);
        o
    }

    /// The table's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// The SysV ELF hash of a symbol name.
pub fn elf_hash(name: &[u8]) -> u32 {
    let mut h: u32 = 0;
    for &c in name {
        h = (h << 4).wrapping_add(c as u32);
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

/// A SysV hash table (`DT_HASH` layout) over a symbol table whose entry `i` is named
/// `names[i]`; entry 0 is the null symbol and is never hashed.
pub fn hash_table(names: &[&[u8]]) -> Vec<u8> {
    let nsym = names.len() as u32;
    let nbucket = (nsym / 2).max(1);
    let mut buckets = vec![0u32; nbucket as usize];
    let mut chains = vec![0u32; names.len()];
    for (i, name) in names.iter().enumerate().skip(1) {
        let b = (elf_hash(name) % nbucket) as usize;
        chains[i] = buckets[b];
        buckets[b] = i as u32;
    }
    [nbucket, nsym]
        .iter()
        .chain(&buckets)
        .chain(&chains)
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_stored_once() {
        let mut t = StringTable::new();
        let a = t.add("libc");
        assert_eq!(t.add("libc"), a);
        assert_eq!(t.add(""), 0);
        assert_eq!(t.bytes(), b"\0libc\0");
    }

    #[test]
    fn hash_matches_the_sysv_definition() {
        assert_eq!(elf_hash(b""), 0);
        assert_eq!(elf_hash(b"printf"), 0x077905a6);
    }
}
