//! No input makes the parsers panic or hang, whatever the bytes.

use agentc_compiler::RelPath;
use agentc_compiler::dialects;
use agentc_compiler::parse::{files, links};
use agentc_compiler::source::Source;
use agentc_schema::Dialect;
use proptest::prelude::*;

fn all_kinds(text: &str) {
    let source = Source::new(RelPath::root("x"), text);
    let mut out = Vec::new();
    for dialect in Dialect::SKILLS {
        for plugin in [false, true] {
            let _ =
                agentc_compiler::dialects::skill::skill(&source, "x", dialect, plugin, &mut out);
        }
    }
    for plugin in [false, true] {
        let _ = dialects::subagent(&source, plugin, &mut out);
    }
    let _ = dialects::command(&source, &mut out);
    let _ = dialects::copilot_agent(&source, &mut out);
    let _ = dialects::plugin_manifest(&source, &mut out);
    let _ = links::relative_links(text, 0);
    let _ = files::agent_md(&source, "x", &mut out);
    let _ = files::agent_json(&source, &mut out);
    let _ = files::tool_manifest(&source, "x", &mut out);
    let _ = files::registry(&source, &mut out);
    // Every diagnostic's span lies inside the text it points into.
    for d in &out {
        if let Some(span) = d.location.span {
            assert!(span.start <= span.end && span.end <= text.len(), "{d:?} in {text:?}");
        }
    }
}

/// Fragments of agent files, so random combinations reach deep into the decoder.
const PIECES: &[&str] = &[
    "---\n",
    "name: a\n",
    "description: d\n",
    "tools: [a, b]\n",
    "tools: a, b\n",
    "steps:\n",
    "  - a: why\n",
    "  - a\n",
    "onSkip: hold\n",
    "routes:\n",
    "  - b: on a status=success\n",
    "  - c\n",
    "{",
    "}",
    "[",
    "]",
    "\"name\": \"x\"",
    "\"version\": \"1.0.0\"",
    ",",
    ":",
    "&a ",
    "*a",
    "null",
    "~",
    "- ",
    "  ",
    "\t",
    "\r\n",
    "\u{feff}",
    "é",
    "'",
    "\"",
    "#",
    "!!str ",
    "|\n",
    "\"entry_points\": [\"system.md\"]",
    "\"trigger_rules\": {}",
    "\"max_iterations\": 0",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_text(text in "\\PC{0,200}") {
        all_kinds(&text);
    }

    #[test]
    fn arbitrary_fragments(pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..40)) {
        all_kinds(&pieces.concat());
    }
}
