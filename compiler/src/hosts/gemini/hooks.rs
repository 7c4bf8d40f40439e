//! A Gemini CLI extension's hooks, `hooks/hooks.json` beside its
//! `gemini-extension.json`, as 0.61.0 loads them (`loadExtensionHooks`):
//! `JSON.parse` (no comments), then `hooks` must be an object, else the
//! file is dropped with "Invalid hooks configuration … \"hooks\" property
//! must be an object" — an error, as a file that does not parse is
//! ("Failed to load extension hooks"). The events and hooks inside go
//! through the hook registry as those of `.gemini/settings.json` do, so
//! they are checked by the same rules (`super::settings`).

use agentc_schema::GeminiHooksFile;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, decode_text};
use crate::parse::tree::Value;
use crate::source::Source;

/// The file, read as Gemini CLI reads it.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<GeminiHooksFile>> {
    let reading = Reading { unknown: Severity::Warning, ..Reading::JSON };
    let start = out.len();
    let doc = decode_text::<GeminiHooksFile>(source, &source.text, 0, reading, out);
    for diagnostic in &mut out[start..] {
        match diagnostic.code {
            Code::UnknownField => {
                diagnostic.help = Some(
                    "Gemini CLI reads only `hooks` in this file and ignores the rest".to_owned(),
                );
            }
            Code::MissingField | Code::InvalidValue => {
                diagnostic.severity = Severity::Error;
                diagnostic.help = Some(
                    "write `{ \"hooks\": { \"<Event>\": [...] } }`; Gemini CLI 0.61.0 drops the \
                     file without it (\"Invalid hooks configuration … \\\"hooks\\\" property \
                     must be an object\") and runs none of its hooks"
                        .to_owned(),
                );
            }
            _ => {}
        }
    }
    let doc = doc?;
    if let Value::Map(entries) = &doc.tree.value
        && let Some(hooks) = entries.iter().find(|e| e.key == "hooks")
    {
        super::settings::hooks(source, &hooks.value, out);
    }
    Some(doc)
}
