//! The compiler's top-level modules import one another without a circle:
//! the pipeline reads in one direction (discover → read → parse → dialects
//! → resolve → check → emit), and the hosts, consulted by it, import only
//! from below. A `crate::<module>` path outside comments and tests is an
//! import; every cycle among them is reported with the files that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module of each `.rs` file under `dir`, with its text (tests
/// and comments left out).
fn sources(src: &Path) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(rel) = path.strip_prefix(src) else { continue };
            let rel = rel.to_string_lossy().replace('\\', "/");
            if !rel.ends_with(".rs") || rel == "lib.rs" {
                continue;
            }
            let module = rel.split('/').next().unwrap().trim_end_matches(".rs").to_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let text = text.split("#[cfg(test)]").next().unwrap_or_default();
            let code: String = text
                .lines()
                .map(|line| line.split("//").next().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n");
            out.entry(module).or_default().push((rel, code));
        }
    }
    out
}

/// The modules `code` names as `crate::<module>`, `use crate::{a, b}` included.
fn imports(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group.split('}').next().unwrap_or_default().split(',').collect(),
            None => vec![rest],
        };
        for name in names {
            let name: String =
                name.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if modules.contains(&name) {
                found.insert(name);
            }
        }
    }
    found
}

#[test]
fn no_import_circle_among_the_compilers_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    let mut edges: BTreeMap<&str, BTreeMap<String, BTreeSet<&str>>> = BTreeMap::new();
    for (module, texts) in &files {
        for (file, code) in texts {
            for target in imports(code, &modules).into_iter().filter(|t| t != module) {
                edges.entry(module).or_default().entry(target).or_default().insert(file);
            }
        }
    }
    // A module is in a circle when it reaches itself.
    let reaches = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<String> =
            edges.get(from).map(|e| e.keys().cloned().collect()).unwrap_or_default();
        while let Some(next) = todo.pop() {
            if seen.insert(next.clone()) {
                todo.extend(edges.get(next.as_str()).into_iter().flat_map(|e| e.keys().cloned()));
            }
        }
        seen
    };
    let mut circles = Vec::new();
    for module in &modules {
        if reaches(module).contains(module) {
            let via: Vec<String> = edges[module.as_str()]
                .iter()
                .filter(|(target, _)| reaches(target).contains(module))
                .map(|(target, files)| format!("{module} -> {target} ({files:?})"))
                .collect();
            circles.push(via.join("; "));
        }
    }
    assert!(circles.is_empty(), "modules in an import circle:\n{}", circles.join("\n"));
    // The test can fail: the hosts are consulted by discovery, which they do not import.
    assert!(edges["discover"].contains_key("hosts") && !edges["hosts"].contains_key("discover"));
}
