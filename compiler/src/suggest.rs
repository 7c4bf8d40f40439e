//! "Did you mean" and "available are" help, fast however many names a scope has.

/// How many names a help line lists before "and N more".
pub const LIST_LIMIT: usize = 20;

/// How far a candidate may be from `name` to be suggested: an edit per three
/// characters, between one and four.
fn allowed_distance(name: &str) -> usize {
    (name.chars().count() / 3).clamp(1, 4)
}

/// The closest candidate within an edit distance that scales with the name
/// (a swap of two neighbouring letters, `Raed` for `Read`, counts as one edit),
/// ignoring case; ties go to the first name in byte order. For the short
/// lists of a file's keys or a tool's known values; a scope's names are
/// searched through a [`NameIndex`].
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = name.chars().count();
    let allowed = allowed_distance(name);
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate.chars().count().abs_diff(len) > allowed {
            continue;
        }
        let distance = strsim::osa_distance(&lower, &candidate.to_lowercase());
        if distance <= allowed && best.is_none_or(|b| (distance, candidate) < b) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// The near miss that `--fix` may write in place of `name`: one edit away
/// (a typo, a swap of two neighbouring letters) or a difference of case, and
/// the only candidate that close. A farther suggestion is only shown: the
/// name meant may be another host's (`codeSearch`, a Copilot tool, is three
/// edits from Claude Code's `ToolSearch`).
pub fn confident<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let mut found: Option<&'a str> = None;
    for candidate in candidates {
        let folded = candidate.to_lowercase();
        if folded.chars().count().abs_diff(lower.chars().count()) > 1 {
            continue;
        }
        if strsim::osa_distance(&lower, &folded) <= 1 {
            if found.is_some_and(|f| !f.eq_ignore_ascii_case(candidate)) {
                return None;
            }
            found = found.or(Some(candidate));
        }
    }
    found
}

/// A set of names searched for "did you mean" without comparing against each:
/// a trie of their lowercase forms, walked with one row of the edit-distance
/// table per node and abandoned where a row exceeds the bound, so a lookup
/// visits only the names' shared prefixes that stay near the query.
/// [`NameIndex::nearest`] gives the answer [`did_you_mean`] would give over
/// the same names, whatever their number.
#[derive(Debug, Default)]
pub struct NameIndex {
    nodes: Vec<TrieNode>,
}

#[derive(Debug, Default)]
struct TrieNode {
    /// By character, sorted.
    children: Vec<(char, u32)>,
    /// The names (as written) whose lowercase form ends here, sorted, each
    /// with its place among the names given.
    names: Vec<(String, usize)>,
}

impl NameIndex {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> NameIndex {
        let mut index = NameIndex { nodes: vec![TrieNode::default()] };
        for (place, name) in names.into_iter().enumerate().filter(|(_, n)| !n.is_empty()) {
            let mut at = 0;
            for c in name.to_lowercase().chars() {
                let children = &index.nodes[at].children;
                at = match children.binary_search_by_key(&c, |&(k, _)| k) {
                    Ok(i) => children[i].1 as usize,
                    Err(i) => {
                        let next = index.nodes.len();
                        index.nodes[at].children.insert(i, (c, next as u32));
                        index.nodes.push(TrieNode::default());
                        next
                    }
                };
            }
            index.nodes[at].names.push((name.to_owned(), place));
        }
        for node in &mut index.nodes {
            // A name given twice keeps its first place.
            node.names.sort_unstable();
            node.names.dedup_by(|later, first| later.0 == first.0);
        }
        index
    }

    /// The name nearest to `name` across `indexes` (a scope's shared and
    /// private names), never `except`: the nearest distance first, then the
    /// first name in byte order.
    pub fn nearest<'a>(
        indexes: &[&'a NameIndex],
        name: &str,
        except: Option<&str>,
    ) -> Option<&'a str> {
        let query: Vec<char> = name.to_lowercase().chars().collect();
        // Deepening the bound one edit at a time keeps the walk to the
        // neighbourhood of the nearest match, which is usually one edit away.
        (0..=allowed_distance(name)).find_map(|bound| {
            indexes
                .iter()
                .filter_map(|index| index.within(&query, bound, except))
                .min()
                .map(|(_, found)| found)
        })
    }

    /// The first name in byte order at distance at most `bound`, with its distance.
    fn within(&self, query: &[char], bound: usize, except: Option<&str>) -> Option<(usize, &str)> {
        let mut best: Option<(usize, &str)> = None;
        self.walk(query, bound, |distance, names| {
            if let Some((found, _)) = names.iter().find(|(n, _)| Some(n.as_str()) != except)
                && best.is_none_or(|b| (distance, found.as_str()) < b)
            {
                best = Some((distance, found));
            }
        });
        best
    }

    /// Every name close enough to `name` (ignoring case) for
    /// [`did_you_mean`] or [`confident`] to pick, in the order they were
    /// given: the few those need to see, found without comparing with each
    /// name, so that many names asked about many names stay linear.
    pub fn near(&self, name: &str) -> Vec<&str> {
        let query: Vec<char> = name.to_lowercase().chars().collect();
        let mut found: Vec<(usize, &str)> = Vec::new();
        self.walk(&query, allowed_distance(name), |_, names| {
            found.extend(names.iter().map(|(n, place)| (*place, n.as_str())));
        });
        found.sort_unstable();
        found.into_iter().map(|(_, n)| n).collect()
    }

    /// Calls `visit` with the distance and names of each node at distance at
    /// most `bound` from `query`, a lowercase name.
    fn walk<'a>(
        &'a self,
        query: &[char],
        bound: usize,
        mut visit: impl FnMut(usize, &'a [(String, usize)]),
    ) {
        let width = query.len() + 1;
        // rows[d] is the distance row of the node at depth d on the current path.
        let mut rows: Vec<Vec<usize>> = vec![(0..width).collect()];
        let mut path: Vec<char> = Vec::new();
        let mut stack: Vec<(u32, usize, char)> =
            self.nodes[0].children.iter().rev().map(|&(c, node)| (node, 1, c)).collect();
        while let Some((node, depth, c)) = stack.pop() {
            path.truncate(depth - 1);
            path.push(c);
            if rows.len() <= depth {
                rows.push(vec![0; width]);
            }
            let (done, rest) = rows.split_at_mut(depth);
            let (prev, row) = (&done[depth - 1], &mut rest[0]);
            let before = (depth >= 2).then(|| (&done[depth - 2], path[depth - 2]));
            row[0] = depth;
            for j in 1..width {
                let q = query[j - 1];
                let cost = usize::from(c != q);
                let mut d = (row[j - 1] + 1).min(prev[j] + 1).min(prev[j - 1] + cost);
                if let Some((two_up, prev_c)) = before
                    && j >= 2
                    && c != q
                    && c == query[j - 2]
                    && q == prev_c
                {
                    d = d.min(two_up[j - 2] + 1);
                }
                row[j] = d;
            }
            let distance = row[width - 1];
            if distance <= bound {
                visit(distance, &self.nodes[node as usize].names);
            }
            // No later row can come back under the bound (each entry is at
            // least an entry of this row), so the subtree is skipped.
            if row.iter().min().is_some_and(|&m| m <= bound) {
                let children = &self.nodes[node as usize].children;
                stack.extend(children.iter().rev().map(|&(c, n)| (n, depth + 1, c)));
            }
        }
    }
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
    fn only_a_near_and_unique_miss_is_confident() {
        let tools = ["Read", "Grep", "Glob", "ToolSearch", "Edit"];
        assert_eq!(confident("Raed", tools), Some("Read"));
        assert_eq!(confident("read", tools), Some("Read"));
        assert_eq!(confident("codeSearch", tools), None);
        // `Grob` is one edit from `Glob` and two from `Grep`: unique.
        assert_eq!(confident("Grob", tools), Some("Glob"));
        // One edit from two names is no fix.
        assert_eq!(confident("Hat", ["Bat", "Cat"]), None);
    }

    #[test]
    fn suggests_close_names_only() {
        let names = ["lookup_order", "issue_refund", "update_ticket"];
        assert_eq!(did_you_mean("lookup_ordr", names), Some("lookup_order"));
        assert_eq!(did_you_mean("Issue_Refund", names), Some("issue_refund"));
        assert_eq!(did_you_mean("send_email", names), None);
        assert_eq!(did_you_mean("Raed", ["Read", "Grep"]), Some("Read"));
    }

    #[test]
    fn the_index_finds_near_misses_among_many_alike() {
        let names: Vec<String> = (0..20_000).map(|i| format!("skill-{i}")).collect();
        let index = NameIndex::new(names.iter().map(String::as_str));
        assert_eq!(NameIndex::nearest(&[&index], "skill-1234", None), Some("skill-1234"));
        assert_eq!(NameIndex::nearest(&[&index], "sklil-1234", None), Some("skill-1234"));
        // One edit away, first in byte order.
        assert_eq!(
            NameIndex::nearest(&[&index], "skill-1234", Some("skill-1234")),
            Some("skill-10234")
        );
        assert_eq!(NameIndex::nearest(&[&index], "lookup_order", None), None);
        let other = NameIndex::new(["Lookup_Order"]);
        assert_eq!(
            NameIndex::nearest(&[&index, &other], "lookup_ordr", None),
            Some("Lookup_Order")
        );
    }

    proptest::proptest! {
        /// The index and a comparison with every name agree on every query.
        #[test]
        fn the_index_agrees_with_comparing_each(
            names in proptest::collection::vec("[abAB_-]{1,7}", 0..40),
            query in "[abAB_-]{0,8}",
            except in proptest::option::of("[ab]{0,3}"),
        ) {
            let index = NameIndex::new(names.iter().map(String::as_str));
            let each = did_you_mean(
                &query,
                names.iter().map(String::as_str).filter(|n| Some(*n) != except.as_deref()),
            );
            proptest::prop_assert_eq!(NameIndex::nearest(&[&index], &query, except.as_deref()), each);
        }
    }

    proptest::proptest! {
        /// Asked only about the names the index finds near, the comparisons
        /// answer as they do asked about all.
        #[test]
        fn the_near_names_answer_as_all_do(
            names in proptest::collection::vec("[abAB_-]{1,7}", 0..40),
            query in "[abAB_-]{0,8}",
        ) {
            let index = NameIndex::new(names.iter().map(String::as_str));
            let near = index.near(&query);
            let all = || names.iter().map(String::as_str);
            proptest::prop_assert_eq!(did_you_mean(&query, near.iter().copied()), did_you_mean(&query, all()));
            proptest::prop_assert_eq!(confident(&query, near.iter().copied()), confident(&query, all()));
        }
    }

    #[test]
    fn near_names_keep_the_order_given() {
        let index = NameIndex::new(["Reed", "READ", "Grep", "Read", "Reed"]);
        assert_eq!(index.near("read"), ["Reed", "READ", "Read"]);
        // Of names alike but for case, the one given first, as over all.
        let index = NameIndex::new(["Read", "Grep", "READ"]);
        assert_eq!(index.near("raed"), ["Read", "READ"]);
        assert_eq!(confident("raed", index.near("raed")), Some("Read"));
    }

    #[test]
    fn lists_are_bounded() {
        let many: Vec<String> = (0..25).map(|i| format!("t{i}")).collect();
        let text = list_names(many.iter().map(String::as_str));
        assert!(text.ends_with("`t19` and 5 more"), "{text}");
    }
}
