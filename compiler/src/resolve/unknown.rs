//! The help for a name that did not resolve: the near miss, offered as a fix,
//! and what is visible instead.

use std::collections::HashMap;

use agentc_schema::Spanned;

use crate::diagnostic::{Diagnostic, RelPath};
use crate::suggest::{LIST_LIMIT, list_names};

use super::table::Table;

/// The help for names that did not resolve, written once per name and scope:
/// a directory repeating one mistake in every skill costs one lookup.
#[derive(Debug, Default)]
pub(super) struct Suggester {
    memo: HashMap<(&'static str, Option<String>, String), Unknown>,
}

/// What to say about a name that did not resolve.
#[derive(Clone, Debug)]
pub(super) struct Unknown {
    pub(super) help: String,
    /// The near miss, offered as the fix.
    pub(super) close: Option<String>,
}

impl Unknown {
    /// Attaches the help, and the near miss as a fix replacing `name`.
    pub(super) fn attach(
        self,
        diagnostic: Diagnostic,
        file: &RelPath,
        name: &Spanned<String>,
    ) -> Diagnostic {
        let diagnostic = diagnostic.with_help(self.help);
        match self.close {
            Some(close) => diagnostic.with_fix(
                format!("replace `{}` with `{close}`", name.value),
                file,
                name.verbatim(0..name.value.len()),
                close,
            ),
            None => diagnostic,
        }
    }
}

impl Suggester {
    /// The help for a name that did not resolve: a near miss, and what exists.
    pub(super) fn unknown_help(
        &mut self,
        table: &Table,
        agent: Option<&str>,
        name: &str,
        noun: &'static str,
    ) -> Unknown {
        self.unknown_help_except(table, agent, name, noun, None)
    }

    /// [`Suggester::unknown_help`], never suggesting `except` (a skill is no
    /// "did you mean" for a route out of itself).
    pub(super) fn unknown_help_except(
        &mut self,
        table: &Table,
        agent: Option<&str>,
        name: &str,
        noun: &'static str,
        except: Option<&str>,
    ) -> Unknown {
        let key = (noun, agent.map(str::to_owned), format!("{name}\0{}", except.unwrap_or("")));
        if let Some(unknown) = self.memo.get(&key) {
            return unknown.clone();
        }
        let (sample, total) = table.visible_sample(agent);
        let mut help = String::new();
        let close = table.nearest(agent, name, except);
        if let Some(close) = close {
            help.push_str(&format!("did you mean `{close}`? "));
        } else if let Some(owner) = table.owner_of_private(name).filter(|o| Some(*o) != agent) {
            help.push_str(&format!("`{name}` is private to the agent `{owner}`. "));
        }
        if total == 0 {
            help.push_str(&format!("no {noun}s are visible here"));
        } else {
            help.push_str(&format!("the {noun}s visible here are {}", list_names(sample)));
            if total > LIST_LIMIT {
                help.push_str(&format!(" and {} more", total - LIST_LIMIT));
            }
        }
        let unknown = Unknown { help, close: close.map(str::to_owned) };
        self.memo.insert(key, unknown.clone());
        unknown
    }
}
