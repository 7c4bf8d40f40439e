//! "Did you mean" and "available are" help, bounded on large registries.

/// How many names a help line lists before "and N more".
pub const LIST_LIMIT: usize = 20;

/// The closest candidate within an edit distance that scales with the name
/// (a swap of two neighbouring letters, `Raed` for `Read`, counts as one edit).
///
/// Candidates whose length differs by more than the allowed distance are
/// skipped before any distance is computed, so the cost stays near-linear in
/// the number of candidates.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut unbounded = usize::MAX;
    did_you_mean_within(name, candidates, &mut unbounded)
}

/// [`did_you_mean`], computing at most `budget` edit distances (and using up
/// the budget as it goes).
pub fn did_you_mean_within<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    budget: &mut usize,
) -> Option<&'a str> {
    let len = name.chars().count();
    let allowed = (len / 3).clamp(1, 4);
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if *budget == 0 {
            break;
        }
        if candidate.chars().count().abs_diff(len) > allowed {
            continue;
        }
        *budget -= 1;
        let distance = strsim::osa_distance(&lower, &candidate.to_lowercase());
        if distance <= allowed && best.is_none_or(|b| (distance, candidate) < b) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `a, b, c` — at most [`LIST_LIMIT`] names, then "and N more".
pub fn list_names<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    let shown: Vec<String> = names.iter().take(LIST_LIMIT).map(|n| format!("`{n}`")).collect();
    let mut out = shown.join(", ");
    if names.len() > LIST_LIMIT {
        out.push_str(&format!(" and {} more", names.len() - LIST_LIMIT));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["lookup_order", "issue_refund", "update_ticket"];
        assert_eq!(did_you_mean("lookup_ordr", names), Some("lookup_order"));
        assert_eq!(did_you_mean("Issue_Refund", names), Some("issue_refund"));
        assert_eq!(did_you_mean("send_email", names), None);
        assert_eq!(did_you_mean("Raed", ["Read", "Grep"]), Some("Read"));
    }

    #[test]
    fn lists_are_bounded() {
        let many: Vec<String> = (0..25).map(|i| format!("t{i}")).collect();
        let text = list_names(many.iter().map(String::as_str));
        assert!(text.ends_with("`t19` and 5 more"), "{text}");
    }
}
