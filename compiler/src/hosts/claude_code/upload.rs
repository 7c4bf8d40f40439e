//! Anthropic's rules for a skill uploaded to the Claude API or claude.ai
//! (the Agent Skills overview on platform.claude.com): a `name` holds
//! neither the reserved words `anthropic` and `claude` nor XML tags, and a
//! `description` holds no XML tags. Claude Code loads such a skill; the
//! upload refuses it, so each is a portability rule (`pedantic`) that says
//! where it fails.

use agentc_schema::{SkillFrontmatter, Spanned, Text};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// The words a skill's name may not contain.
const RESERVED: &[&str] = &["anthropic", "claude"];

const WHERE: &str = "the Claude API and claude.ai refuse to upload such a skill; Claude Code \
                     loads it";

/// The upload rules on a skill's `name` and `description`.
pub fn check(source: &Source, front: &SkillFrontmatter, out: &mut Vec<Diagnostic>) {
    let name = front.name.value.as_str();
    let lower = name.to_ascii_lowercase();
    if let Some(word) = RESERVED.iter().find(|w| lower.contains(*w)) {
        out.push(
            Diagnostic::at(
                Code::BadName,
                &source.path,
                front.name.span,
                format!("the skill name `{name}` contains the reserved word `{word}`"),
            )
            .with_severity(Severity::Warning)
            .pedantic()
            .with_help(format!("rename the skill without `{word}`: {WHERE}")),
        );
    }
    for (field, value) in [("name", &front.name), ("description", &front.description)] {
        if let Some(tag) = xml_tag(value.value.as_str()) {
            out.push(tag_diagnostic(source, field, value, tag));
        }
    }
}

fn tag_diagnostic(
    source: &Source,
    field: &str,
    value: &Spanned<Text>,
    tag: std::ops::Range<usize>,
) -> Diagnostic {
    let text = &value.value.as_str()[tag.clone()];
    Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        value.token_span(tag),
        format!("the skill's `{field}` holds the XML tag `{text}`"),
    )
    .with_severity(Severity::Warning)
    .pedantic()
    .with_help(format!(
        "write it without angle brackets (`{}`), or in backticks in the body instead: {WHERE}",
        text.trim_matches(|c| c == '<' || c == '>' || c == '/')
    ))
}

/// The first XML tag in `text` (`<example>`, `</example>`, `<br/>`,
/// `<TMessage>`, `<a href="x">`): `<`, an optional `/`, a letter, then name
/// characters, then `>`, `/>` or attributes up to `>` on the same line.
/// `a < b`, `<=`, `<3` and `<https://…>` are not tags.
fn xml_tag(text: &str) -> Option<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find('<').map(|i| from + i) {
        from = at + 1;
        let mut i = at + 1;
        if bytes.get(i) == Some(&b'/') {
            i += 1;
        }
        if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        while bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || b"_.-".contains(b)) {
            i += 1;
        }
        let rest = &text[i..];
        let end = match rest.as_bytes().first() {
            Some(b'>') => i + 1,
            Some(b'/') if rest.as_bytes().get(1) == Some(&b'>') => i + 2,
            Some(b' ' | b'\t') => match rest.find(['>', '<', '\n']) {
                Some(j) if rest.as_bytes()[j] == b'>' && !rest[..j].contains("://") => i + j + 1,
                _ => continue,
            },
            _ => continue,
        };
        return Some(at..end);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::xml_tag;

    #[test]
    fn tags_are_found_and_comparisons_are_not() {
        let found = |t: &str| xml_tag(t).map(|r| t[r].to_owned());
        assert_eq!(found("Formats a <TMessage> reply").as_deref(), Some("<TMessage>"));
        assert_eq!(found("ends here </example>").as_deref(), Some("</example>"));
        assert_eq!(found("a break<br/>").as_deref(), Some("<br/>"));
        assert_eq!(found("see <a href=\"x\">this</a>").as_deref(), Some("<a href=\"x\">"));
        assert_eq!(found("when a < b and c > d"), None);
        assert_eq!(found("sizes <= 10, <3 files"), None);
        assert_eq!(found("see <https://example.com>"), None);
        assert_eq!(found("List<String> types").as_deref(), Some("<String>"));
    }
}
