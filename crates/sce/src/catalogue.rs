//! A NID catalogue: names for NIDs, used to make diagnostics readable.

use std::collections::HashMap;
use std::path::Path;

/// Maps NIDs to the symbol names they were computed from.
///
/// Loaded from files of `NID name` lines (the format of `aerolib.csv`). Lines that are
/// empty or start with `#` are skipped.
#[derive(Debug, Default, Clone)]
pub struct NidCatalogue {
    names: HashMap<String, String>,
}

/// A line of a catalogue file that is not `NID name`.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    /// The file could not be read.
    #[error("cannot read NID catalogue {path}: {source}")]
    Io {
        /// The path that was read.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A line is not `NID name`.
    #[error("NID catalogue line {line}: expected `NID name`, found {text:?}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The offending text.
        text: String,
    },
}

impl NidCatalogue {
    /// An empty catalogue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses catalogue text.
    pub fn parse(text: &str) -> Result<Self, CatalogueError> {
        let mut names = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (nid, name) = line
                .split_once([' ', '\t'])
                .filter(|(nid, name)| !nid.is_empty() && !name.trim().is_empty())
                .ok_or_else(|| CatalogueError::BadLine {
                    line: i + 1,
                    text: line.to_string(),
                })?;
            names.insert(nid.to_string(), name.trim().to_string());
        }
        Ok(NidCatalogue { names })
    }

    /// Loads a catalogue file.
    pub fn load(path: &Path) -> Result<Self, CatalogueError> {
        let text = std::fs::read_to_string(path).map_err(|source| CatalogueError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text)
    }

    /// Adds a name, computing its NID.
    pub fn insert_name(&mut self, name: &str) {
        self.names
            .insert(crate::nid::nid_of(name), name.to_string());
    }

    /// The name of a NID, if known.
    pub fn name(&self, nid: &str) -> Option<&str> {
        self.names.get(nid).map(String::as_str)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when the catalogue has no entries.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Iterates over `(nid, name)` pairs in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.names.iter().map(|(a, b)| (a.as_str(), b.as_str()))
    }
}
