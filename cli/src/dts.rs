//! `agentc lock --emit-dts FILE`: the TypeScript declarations of the
//! project's names ([`agentc_compiler::emit::typescript`]), written beside the
//! lockfile from the same compile, replaced atomically, or compared with
//! `--check`.

use std::io::Read;
use std::path::Path;

use agentc_compiler::emit::{self, typescript};
use agentc_compiler::write;
use agentc_schema::Lockfile;

use crate::cli::{EXIT_ERRORS, EXIT_OK, Io};

/// Where the declarations go and what else the run writes or reads.
pub struct DtsTarget<'a> {
    /// The path given to `--emit-dts`.
    pub path: &'a Path,
    /// `--check`: compare, write nothing.
    pub check: bool,
    /// The lockfile's destination, which the declarations must not replace.
    pub lockfile: &'a Path,
    /// The input of the compile a canonical path is, as the user names it.
    pub input: &'a dyn Fn(&Path) -> Option<String>,
    /// The command that writes them, for the hint of `--check`.
    pub command: &'a str,
}

/// Writes (or with `check`, compares) the declarations of `lockfile`; the
/// exit code, or why they cannot be written.
pub fn emit_dts(
    target: &DtsTarget<'_>,
    lockfile: &Lockfile,
    io: &mut Io<'_>,
) -> Result<i32, String> {
    let shown = emit::relative_to_cwd(target.path);
    let shown = emit::escape_controls(&shown);
    let text = typescript::declarations(lockfile);
    let cannot = |why: String| format!("cannot write the declarations `{shown}`: {why}");
    let write_err = |err: std::io::Error| err.to_string();
    let destination = match write::destination(target.path, None) {
        Ok(destination) => destination,
        Err(err) if target.check => {
            writeln!(io.stderr, "error: {shown} cannot be read: {err}").map_err(write_err)?;
            return Ok(EXIT_ERRORS);
        }
        Err(err) => return Err(cannot(err.to_string())),
    };
    let same = write::same_as(&destination, |out| out.write_all(text.as_bytes()));
    if same.as_ref().is_ok_and(|same| *same) {
        writeln!(io.stderr, "{shown} is up to date").map_err(write_err)?;
        return Ok(EXIT_OK);
    }
    if target.check {
        match same {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                writeln!(io.stderr, "error: {shown} does not exist").map_err(write_err)?;
                writeln!(io.stderr, "help: run `{}` to write it", target.command)
                    .map_err(write_err)?;
            }
            Err(err) => {
                writeln!(io.stderr, "error: {shown} cannot be read: {err}").map_err(write_err)?;
            }
            Ok(_) if !replaceable(&destination).unwrap_or(false) => {
                writeln!(io.stderr, "error: {shown}: {NOT_OURS}").map_err(write_err)?;
            }
            Ok(_) => {
                writeln!(io.stderr, "error: {shown} is out of date").map_err(write_err)?;
                writeln!(io.stderr, "help: run `{}` to update it", target.command)
                    .map_err(write_err)?;
            }
        }
        return Ok(EXIT_ERRORS);
    }
    if destination == target.lockfile {
        return Err(cannot("it is the lockfile; name another file".to_owned()));
    }
    if let Some(input) = (target.input)(&destination) {
        return Err(cannot(format!(
            "it is `{}`, which this compile reads; name another file",
            emit::escape_controls(&input)
        )));
    }
    if !replaceable(&destination).map_err(|err| cannot(err.to_string()))? {
        return Err(cannot(NOT_OURS.to_owned()));
    }
    write::write_atomic(&destination, text.as_bytes()).map_err(|err| cannot(err.to_string()))?;
    writeln!(io.stderr, "wrote {shown}").map_err(write_err)?;
    Ok(EXIT_OK)
}

/// Why a file at the path given is not replaced.
const NOT_OURS: &str = "it was not written by `agentc lock --emit-dts` (its first line is not \
                        agentc's), and is left as it is; name another file, or remove this one";

/// Whether the file at `destination` may be replaced: it does not exist, is
/// empty, or starts as the declarations agentc writes do. A hand-written
/// `.d.ts` named by mistake is never overwritten.
fn replaceable(destination: &Path) -> std::io::Result<bool> {
    let file = match write::open_regular(destination) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        other => other?,
    };
    // Anything but a regular file is refused by the write itself.
    let Some(file) = file else { return Ok(true) };
    let mut start = Vec::new();
    file.take(typescript::HEADER.len() as u64).read_to_end(&mut start)?;
    Ok(start.is_empty() || start == typescript::HEADER.as_bytes())
}
