//! NIDs: the 11-character names the console gives to imported and exported symbols.
//!
//! A NID is the first 8 bytes of SHA-1(name ‖ suffix key), read as a little-endian
//! integer, written big-endian (that is, byte-reversed), then base64-encoded with the
//! alphabet `A–Z a–z 0–9 + -` and cut to 11 characters. In a binary's symbol table a NID
//! is followed by `#L#M`: the library and module ids in the same base64 digit alphabet.

use sha1::{Digest, Sha1};

/// The key appended to a symbol name before hashing.
pub const NID_SUFFIX_KEY: [u8; 16] = [
    0x51, 0x8D, 0x64, 0xA6, 0x35, 0xDE, 0xD8, 0xC1, 0xE6, 0xB0, 0x39, 0xB1, 0xC3, 0xE5, 0x52, 0x30,
];

/// The base64 digit alphabet of NIDs and of the `#L#M` ids.
pub const NID_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/// Length of a NID string.
pub const NID_LEN: usize = 11;

/// Computes the NID of a symbol name.
pub fn nid_of(name: &str) -> String {
    let mut hasher = Sha1::new();
    hasher.update(name.as_bytes());
    hasher.update(NID_SUFFIX_KEY);
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    let value = u64::from_le_bytes(first);
    encode_nid_value(value)
}

/// Encodes the 64-bit NID value into its 11-character text.
fn encode_nid_value(value: u64) -> String {
    let bytes = value.to_be_bytes();
    // 8 bytes = 64 bits: ten full 6-bit digits and a last digit from the low 4 bits
    // shifted left by 2, exactly as standard base64 pads the final group.
    let mut out = String::with_capacity(NID_LEN);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for b in bytes {
        acc = (acc << 8) | b as u32;
        bits += 8;
        while bits >= 6 {
            bits -= 6;
            out.push(NID_ALPHABET[((acc >> bits) & 0x3f) as usize] as char);
        }
    }
    out.push(NID_ALPHABET[((acc << (6 - bits)) & 0x3f) as usize] as char);
    out
}

/// The value of one digit of the NID alphabet, or `None` for other characters.
pub fn digit_value(c: u8) -> Option<u32> {
    NID_ALPHABET.iter().position(|&a| a == c).map(|v| v as u32)
}

/// Encodes a library or module id in the NID digit alphabet (most significant digit first).
pub fn encode_id(mut id: u32) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(NID_ALPHABET[(id % 64) as usize]);
        id /= 64;
        if id == 0 {
            break;
        }
    }
    digits.reverse();
    String::from_utf8(digits).expect("alphabet is ASCII")
}

/// Decodes an id written in the NID digit alphabet.
pub fn decode_id(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 5 {
        return None;
    }
    text.bytes()
        .try_fold(0u32, |acc, c| Some(acc * 64 + digit_value(c)?))
}

/// True when `text` has the shape of a NID: 11 characters of the NID alphabet.
pub fn is_nid(text: &str) -> bool {
    text.len() == NID_LEN && text.bytes().all(|c| digit_value(c).is_some())
}

/// A symbol name of the form `NID#L#M`, split into its parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SymbolNid {
    /// The 11-character NID (or a longer raw name, which some binaries carry).
    pub nid: String,
    /// Library id.
    pub library: u32,
    /// Module id.
    pub module: u32,
}

impl SymbolNid {
    /// Splits `NID#L#M`. Returns `None` if the text has no valid `#L#M` suffix.
    pub fn parse(text: &str) -> Option<SymbolNid> {
        let mut parts = text.rsplitn(3, '#');
        let module = decode_id(parts.next()?)?;
        let library = decode_id(parts.next()?)?;
        let nid = parts.next()?;
        if nid.is_empty() {
            return None;
        }
        Some(SymbolNid {
            nid: nid.to_string(),
            library,
            module,
        })
    }

    /// Formats `NID#L#M`.
    pub fn format(nid: &str, library: u32, module: u32) -> String {
        format!("{nid}#{}#{}", encode_id(library), encode_id(module))
    }
}

impl std::fmt::Display for SymbolNid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&SymbolNid::format(&self.nid, self.library, self.module))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values_from_the_design() {
        assert_eq!(nid_of("printf"), "hcuQgD53UxM");
        assert_eq!(nid_of("sceKernelUsleep"), "1jfXLRVzisc");
    }

    #[test]
    fn ids_round_trip() {
        for id in [0, 1, 2, 63, 64, 65, 4095, 4096, 100_000] {
            assert_eq!(decode_id(&encode_id(id)), Some(id), "{id}");
        }
        assert_eq!(encode_id(1), "B");
        assert_eq!(decode_id("C"), Some(2));
        assert_eq!(decode_id("#"), None);
    }

    #[test]
    fn symbol_nid_parses_real_suffixes() {
        let s = SymbolNid::parse("hcuQgD53UxM#C#C").unwrap();
        assert_eq!((s.nid.as_str(), s.library, s.module), ("hcuQgD53UxM", 2, 2));
        assert_eq!(s.to_string(), "hcuQgD53UxM#C#C");
        assert!(SymbolNid::parse("module_start").is_none());
        assert!(SymbolNid::parse("#B#B").is_none());
    }
}
