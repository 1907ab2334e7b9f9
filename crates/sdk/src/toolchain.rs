//! The external programs: clang-19 and ld.lld-19 from Debian's `clang-19` and `lld-19`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::SdkError;

/// The compiler and linker the sdk runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolchain {
    /// The C/C++ compiler and assembler (`clang-19`); it must know `x86_64-sie-ps5`.
    pub clang: PathBuf,
    /// The ELF linker (`ld.lld-19`).
    pub lld: PathBuf,
}

impl Default for Toolchain {
    /// `clang-19` and `ld.lld-19`, looked up on PATH.
    fn default() -> Self {
        Toolchain {
            clang: PathBuf::from("clang-19"),
            lld: PathBuf::from("ld.lld-19"),
        }
    }
}

impl Toolchain {
    /// Checks that both programs start, so a missing one is reported before any work.
    pub fn check(&self) -> Result<(), SdkError> {
        for tool in [&self.clang, &self.lld] {
            self.run(tool, [OsStr::new("--version")], None, false)?;
        }
        Ok(())
    }

    /// The Debian package that provides `tool` (for the "not found" message).
    fn package_of(&self, tool: &Path) -> &'static str {
        if tool == self.lld {
            "lld-19"
        } else {
            "clang-19"
        }
    }

    /// Runs `tool` with `args` in `cwd`, and turns a failure into an [`SdkError`] that
    /// carries the command line and what the tool printed.
    pub(crate) fn run<I, S>(
        &self,
        tool: &Path,
        args: I,
        cwd: Option<&Path>,
        verbose: bool,
    ) -> Result<(), SdkError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new(tool);
        cmd.args(args);
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        let line = command_line(&cmd);
        if verbose {
            eprintln!("+ {line}");
        }
        let out = cmd.output().map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                SdkError::ToolMissing {
                    tool: tool.display().to_string(),
                    package: self.package_of(tool),
                }
            } else {
                SdkError::Io {
                    path: tool.to_path_buf(),
                    source: e,
                }
            }
        })?;
        if out.status.success() {
            if verbose {
                eprint!("{}", String::from_utf8_lossy(&out.stderr));
            }
            return Ok(());
        }
        let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stdout));
        Err(SdkError::ToolFailed {
            tool: tool.display().to_string(),
            command: line,
            status: out.status.to_string(),
            stderr: text.trim_end().to_string(),
        })
    }
}

/// The command as one shell-like line (arguments with spaces quoted), for messages.
fn command_line(cmd: &Command) -> String {
    let quote = |s: &OsStr| {
        let s = s.to_string_lossy();
        if s.is_empty() || s.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
            format!("'{}'", s.replace('\'', r"'\''"))
        } else {
            s.into_owned()
        }
    };
    std::iter::once(quote(cmd.get_program()))
        .chain(cmd.get_args().map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The toolchain for a test that builds titles, or `None` after printing why it skips.
///
/// Panics when the tools are missing and `NATIVE5_REQUIRE_TOOLS=1` (set by CI), so that a
/// CI machine without them fails instead of passing vacuously. Meant for tests only.
pub fn test_toolchain(test: &str) -> Option<Toolchain> {
    let tc = Toolchain::default();
    match tc.check() {
        Ok(()) => Some(tc),
        Err(e) if std::env::var("NATIVE5_REQUIRE_TOOLS").is_ok_and(|v| v == "1") => {
            panic!("{test}: {e} (and NATIVE5_REQUIRE_TOOLS=1)")
        }
        Err(e) => {
            eprintln!("skipping {test}: {e}");
            None
        }
    }
}
