//! Splitting a Markdown file into its YAML frontmatter and its body.

use agentc_schema::Span;

/// A Markdown file cut at its frontmatter fences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML between the fences.
    pub yaml: &'a str,
    /// Where the YAML starts in the file.
    pub yaml_start: usize,
    /// Everything after the closing fence's line.
    pub body: &'a str,
    pub body_start: usize,
}

/// Which rule a file's frontmatter breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    /// No `---` line at all.
    Missing,
    /// A `---` line, but not on the first line.
    Misplaced,
    /// An opening `---` and no closing one.
    Unclosed,
}

/// Why a file has no usable frontmatter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontmatterError {
    pub broken: Broken,
    pub span: Span,
    pub message: String,
    pub help: String,
}

/// Is `line` (without its line end) a `---` fence? Trailing blanks are allowed.
fn is_fence(line: &str) -> bool {
    line.strip_prefix("---").is_some_and(|rest| rest.trim_end_matches([' ', '\t', '\r']).is_empty())
}

/// Splits `text` (BOM already removed). The opening fence must be the first line.
pub fn split(text: &str) -> Result<Split<'_>, FrontmatterError> {
    let first_end = text.find('\n').unwrap_or(text.len());
    let first = &text[..first_end];
    if !is_fence(first) {
        let fence_later = text
            .split_inclusive('\n')
            .scan(0, |offset, line| {
                let start = *offset;
                *offset += line.len();
                Some((start, line.trim_end_matches('\n')))
            })
            .find(|(_, line)| is_fence(line));
        return Err(match fence_later {
            Some((start, line)) => FrontmatterError {
                broken: Broken::Misplaced,
                span: Span::new(start, start + line.trim_end().len()),
                message: "the frontmatter does not start on the first line".into(),
                help: "move the opening `---` to line 1; nothing may come before it".into(),
            },
            None => FrontmatterError {
                broken: Broken::Missing,
                span: Span::new(0, first.trim_end().len()),
                message: "the file has no frontmatter".into(),
                help: "start the file with a YAML block between two `---` lines".into(),
            },
        });
    }
    let yaml_start = (first_end + 1).min(text.len());
    let mut offset = yaml_start;
    for line in text[yaml_start..].split_inclusive('\n') {
        if is_fence(line.trim_end_matches('\n')) {
            let body_start = offset + line.len();
            return Ok(Split {
                yaml: &text[yaml_start..offset],
                yaml_start,
                body: &text[body_start..],
                body_start,
            });
        }
        offset += line.len();
    }
    Err(FrontmatterError {
        broken: Broken::Unclosed,
        span: Span::new(0, first.trim_end().len()),
        message: "the frontmatter is not closed".into(),
        help: "end the YAML block with a line holding only `---`".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_the_fences() {
        let s = split("---\r\nname: a\r\n---\r\nbody\n").unwrap();
        assert_eq!(s.yaml, "name: a\r\n");
        assert_eq!(s.yaml_start, 5);
        assert_eq!(s.body, "body\n");
        let s = split("---\n---").unwrap();
        assert_eq!((s.yaml, s.body), ("", ""));
    }

    #[test]
    fn broken_fences_say_which_rule() {
        assert!(split("\n---\nname: a\n---\n").unwrap_err().message.contains("first line"));
        assert!(split("# Title\n").unwrap_err().message.contains("no frontmatter"));
        assert!(split("---\nname: a\n").unwrap_err().message.contains("not closed"));
    }
}
