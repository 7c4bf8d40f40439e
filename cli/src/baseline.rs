//! `check --baseline FILE` and `check --write-baseline FILE`: the problems a
//! repository has today, recorded so that only new ones are reported. The
//! format and what a problem is known by are in
//! `agentc_compiler::baseline`.

use std::path::Path;

use agentc_compiler::baseline::{Baseline, Filtered};
use agentc_compiler::emit;

/// Reads the baseline at `path`, with its path as shown; an error says
/// where the file is wrong (`FILE:LINE:COLUMN`).
pub fn read(path: &Path) -> Result<(Baseline, String), Box<dyn std::error::Error>> {
    let shown = emit::relative_to_cwd(path);
    let escaped = emit::escape_controls(&shown).into_owned();
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "the baseline `{escaped}` does not exist; write it with \
                 `agentc check --write-baseline {escaped}`"
            )
            .into());
        }
        Err(err) => return Err(format!("cannot read the baseline `{escaped}`: {err}").into()),
    };
    let text = String::from_utf8(text)
        .map_err(|_| format!("the baseline `{escaped}` is not UTF-8 text"))?;
    let baseline = Baseline::from_json(&text).map_err(|why| {
        format!(
            "the baseline `{escaped}` is malformed: {escaped}:{}; a baseline is what \
             `agentc check --write-baseline {escaped}` writes",
            emit::escape_controls(&why)
        )
    })?;
    Ok((baseline, shown))
}

/// Says on stderr what the baseline `shown` left out, and how many of its
/// entries no longer occur.
pub fn tell(filtered: Filtered, shown: &str, io: &mut crate::Io<'_>) -> std::io::Result<()> {
    let shown = emit::escape_controls(shown);
    let Filtered { baselined, gone } = filtered;
    let problems = if baselined == 1 { "problem" } else { "problems" };
    write!(io.stderr, "note: {baselined} {problems} in the baseline `{shown}` not reported")?;
    match gone {
        0 => writeln!(io.stderr),
        _ => writeln!(
            io.stderr,
            "; {gone} {} no longer {}: `agentc check --write-baseline {shown}` shrinks it",
            if gone == 1 { "problem it holds" } else { "problems it holds" },
            if gone == 1 { "occurs" } else { "occur" },
        ),
    }
}
