//! Where the cursor is in a JSON or TOML document — which key's value, or a
//! key of which map — read from the text before it, so a document being
//! typed (and not valid yet) still answers.

use super::keys::Step;

/// What is being written at the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A key of the map at `path`, with the keys it already has.
    Key { path: Vec<Step>, written: Vec<String> },
    /// The value at `path`; `quoted` when the cursor is inside its quotes.
    Value { path: Vec<Step>, quoted: bool },
}

/// A container open at the cursor.
enum Open {
    Map { key: Option<String>, written: Vec<String>, after_colon: bool },
    List,
}

/// The place of `at` (the start of the word being typed) in a JSON text.
pub fn json(text: &str, at: usize) -> Option<Place> {
    let mut stack: Vec<Open> = Vec::new();
    let mut string: Option<String> = None;
    let mut escaped = false;
    for c in text[..at].chars() {
        if let Some(buffer) = string.as_mut() {
            match c {
                _ if escaped => {
                    escaped = false;
                    buffer.push(c);
                }
                '\\' => escaped = true,
                '"' => {
                    let done = string.take().unwrap_or_default();
                    if let Some(Open::Map { key, written, after_colon: false }) = stack.last_mut() {
                        written.push(done.clone());
                        *key = Some(done);
                    }
                }
                c => buffer.push(c),
            }
            continue;
        }
        match c {
            '"' => string = Some(String::new()),
            '{' => stack.push(Open::Map { key: None, written: Vec::new(), after_colon: false }),
            '[' => stack.push(Open::List),
            '}' | ']' => {
                stack.pop();
            }
            ':' => {
                if let Some(Open::Map { after_colon, .. }) = stack.last_mut() {
                    *after_colon = true;
                }
            }
            ',' => {
                if let Some(Open::Map { key, after_colon, .. }) = stack.last_mut() {
                    *key = None;
                    *after_colon = false;
                }
            }
            _ => {}
        }
    }
    let quoted = string.is_some();
    let mut path = Vec::new();
    let last = stack.len().checked_sub(1)?;
    for (i, open) in stack.iter().enumerate() {
        match open {
            Open::Map { key: Some(key), after_colon: true, .. } => {
                path.push(Step::Key(key.clone()))
            }
            Open::Map { written, .. } if i == last => {
                return quoted.then(|| Place::Key { path, written: written.clone() });
            }
            Open::Map { .. } => return None,
            Open::List => path.push(Step::Item),
        }
    }
    Some(Place::Value { path, quoted })
}

/// The place of `at` in a TOML text: a key of the top or of a `[table]`, or
/// the value of `key = `.
pub fn toml(text: &str, at: usize) -> Option<Place> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let mut path: Vec<Step> = Vec::new();
    let mut table_start = 0;
    for (offset, line) in line_offsets(&text[..line_start]) {
        let line = line.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.split(']').next()) {
            path =
                name.split('.').map(|k| Step::Key(k.trim().trim_matches('"').to_owned())).collect();
            table_start = offset;
        }
    }
    match before.split_once('=') {
        None if before.trim().is_empty() => {
            // The table's own lines: after its header, up to the next one.
            let written = line_offsets(&text[table_start..])
                .skip(usize::from(!path.is_empty()))
                .take_while(|(_, line)| !line.trim_start().starts_with('['))
                .filter(|(offset, _)| table_start + offset != line_start)
                .filter_map(|(_, line)| line.split_once('=').map(|(key, _)| key.trim().to_owned()))
                .collect();
            Some(Place::Key { path, written })
        }
        Some((key, value)) if !key.trim().is_empty() => {
            path.push(Step::Key(key.trim().trim_matches('"').to_owned()));
            if value.trim_start().starts_with('[') {
                path.push(Step::Item);
            }
            // Inside a string when an odd number of quotes precede.
            let quoted = value.matches(['"', '\'']).count() % 2 == 1;
            Some(Place::Value { path, quoted })
        }
        _ => None,
    }
}

/// The place of `at` in YAML starting at `begin`: a top-level key at the
/// start of a line, or a value of the top-level key its line belongs to.
pub fn yaml(text: &str, begin: usize, at: usize) -> Option<Place> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1).max(begin);
    let before = &text[line_start..at];
    if before.is_empty() {
        return Some(Place::Key { path: Vec::new(), written: Vec::new() });
    }
    let top = if before.starts_with([' ', '\t', '-']) {
        text[begin..line_start]
            .lines()
            .rev()
            .find(|line| !line.is_empty() && !line.starts_with([' ', '\t', '-', '#']))?
    } else {
        before
    };
    let (key, _) = top.split_once(':')?;
    let key = key.trim().trim_matches(['"', '\'']);
    Some(Place::Value { path: vec![Step::Key(key.to_owned())], quoted: false })
}

/// Each line of `text` with its offset.
fn line_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |offset, line| {
        let at = *offset;
        *offset += line.len();
        Some((at, line.trim_end_matches(['\n', '\r'])))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Step {
        Step::Key(k.to_owned())
    }

    #[test]
    fn json_places() {
        let text = r#"{"name": "p", "hooks": {"Pre"#;
        let at = text.len() - 3;
        assert_eq!(
            json(text, at),
            Some(Place::Key { path: vec![key("hooks")], written: Vec::new() })
        );
        let text = r#"{"name": "p", "de"#;
        assert_eq!(
            json(text, text.len() - 2),
            Some(Place::Key { path: Vec::new(), written: vec!["name".to_owned()] })
        );
        let text = r#"{"plugins": [{"category": "de"#;
        assert_eq!(
            json(text, text.len() - 2),
            Some(Place::Value {
                path: vec![key("plugins"), Step::Item, key("category")],
                quoted: true
            })
        );
        // Outside any string, where a key goes: nothing to say yet.
        assert_eq!(json(r#"{"a": 1, "#, 9), None);
    }

    #[test]
    fn toml_places() {
        let text = "root = \"agents\"\nla\n\n[lints]\nsecret = \"de\n";
        let at = text.find("la").unwrap();
        assert_eq!(
            toml(text, at),
            Some(Place::Key { path: Vec::new(), written: vec!["root".to_owned()] })
        );
        let at = text.find("de\n").unwrap();
        assert_eq!(
            toml(text, at),
            Some(Place::Value { path: vec![key("lints"), key("secret")], quoted: true })
        );
        let text = "layouts = [\"claude\", ";
        assert_eq!(
            toml(text, text.len()),
            Some(Place::Value { path: vec![key("layouts"), Step::Item], quoted: false })
        );
    }
}
