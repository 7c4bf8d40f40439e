//! gitleaks' rules (`vendor/gitleaks/gitleaks.toml`) turned into Rust data
//! at build time: parsing the 98 KB of TOML took 4 ms of every run, before
//! the first file could be scanned. `secrets.rs` reads what this writes.

use std::fmt::Write;

use toml_edit::{Document, Item, Table};

const SOURCE: &str = "vendor/gitleaks/gitleaks.toml";

fn main() {
    println!("cargo::rerun-if-changed={SOURCE}");
    println!("cargo::rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(SOURCE)
        .unwrap_or_else(|err| panic!("{SOURCE} cannot be read: {err}"));
    let doc = Document::parse(text).unwrap_or_else(|err| panic!("{SOURCE} is not TOML: {err}"));
    let mut out = String::from("// Written by build.rs from vendor/gitleaks/gitleaks.toml.\n");
    let global = doc.get("allowlist").and_then(Item::as_table);
    writeln!(out, "pub(super) static GLOBAL: AllowlistSource = {};", allowlist(global)).unwrap();
    out.push_str("pub(super) static RULES: &[RuleSource] = &[\n");
    let rules = doc.get("rules").and_then(Item::as_array_of_tables);
    for rule in rules.into_iter().flat_map(|rules| rules.iter()) {
        let text = |key: &str| format!("{:?}", rule.get(key).and_then(Item::as_str).unwrap_or(""));
        let number = |key: &str| {
            let value = rule.get(key).and_then(Item::as_value);
            value.and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
        };
        let allowlists = rule.get("allowlists").and_then(Item::as_array_of_tables);
        let allowlists: Vec<String> =
            allowlists.into_iter().flat_map(|t| t.iter()).map(|t| allowlist(Some(t))).collect();
        writeln!(
            out,
            "    RuleSource {{ id: {}, description: {}, regex: {}, path: {}, secret_group: {}, \
             entropy: {:?}, keywords: {}, allowlists: &[{}] }},",
            text("id"),
            text("description"),
            text("regex"),
            text("path"),
            number("secretGroup").unwrap_or(0.0) as usize,
            number("entropy").unwrap_or(0.0),
            strings(rule, "keywords"),
            allowlists.join(", "),
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("gitleaks.rs"), out)
        .unwrap_or_else(|err| panic!("gitleaks.rs cannot be written: {err}"));
}

/// A `[allowlist]` or `[[rules.allowlists]]` table as an `AllowlistSource`.
fn allowlist(table: Option<&Table>) -> String {
    let Some(table) = table else {
        return "AllowlistSource { condition: \"\", regex_target: \"\", paths: &[], regexes: &[], \
                stopwords: &[] }"
            .to_owned();
    };
    let text = |key: &str| format!("{:?}", table.get(key).and_then(Item::as_str).unwrap_or(""));
    format!(
        "AllowlistSource {{ condition: {}, regex_target: {}, paths: {}, regexes: {}, stopwords: {} }}",
        text("condition"),
        text("regexTarget"),
        strings(table, "paths"),
        strings(table, "regexes"),
        strings(table, "stopwords"),
    )
}

/// The array of strings at `key` as a Rust slice of string literals.
fn strings(table: &Table, key: &str) -> String {
    let array = table.get(key).and_then(Item::as_array);
    let items: Vec<String> = (array.into_iter().flat_map(|a| a.iter()))
        .filter_map(|v| v.as_str())
        .map(|s| format!("{s:?}"))
        .collect();
    format!("&[{}]", items.join(", "))
}
