//! The Zed extension (`editors/zed/`), built as Zed builds it: `cargo build
//! --target wasm32-wasip2` (Zed's `extension_builder.rs` and the
//! `zed_extension_api` README name that target). Its `extension.toml` parses
//! and declares the language server the crate starts, for the file types
//! agentc reads; the crate builds offline from its lockfile; the component
//! holds the custom section Zed reads the API version from
//! (`zed:api-version`, the pinned `zed_extension_api`'s) and exports
//! `init-extension`, which only `register_extension!` defines. Needs the
//! `wasm32-wasip2` target and the crate's dependencies fetched, which `.ci/run`
//! does (`rustup target add wasm32-wasip2`, `cargo fetch --manifest-path
//! editors/zed/Cargo.toml`).

use std::path::{Path, PathBuf};
use std::process::Command;

use toml_edit::DocumentMut;

mod common;

fn extension() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/zed")
}

fn read_toml(path: &Path) -> DocumentMut {
    let text = std::fs::read_to_string(path).unwrap();
    text.parse().unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()))
}

/// The string value of `pub const NAME: &str = "...";` in the crate.
fn constant(source: &str, name: &str) -> String {
    let start = source.find(&format!("pub const {name}: &str = \"")).unwrap();
    let value = &source[start..].split('"').nth(1).unwrap();
    (*value).to_owned()
}

#[test]
fn the_manifest_declares_the_server_the_crate_starts() {
    let manifest = read_toml(&extension().join("extension.toml"));
    let cargo = read_toml(&extension().join("Cargo.toml"));
    let source = std::fs::read_to_string(extension().join("src/lib.rs")).unwrap();
    assert_eq!(manifest["id"].as_str(), Some("agentc"));
    assert_eq!(manifest["schema_version"].as_integer(), Some(1));
    assert_eq!(manifest["version"].as_str(), cargo["package"]["version"].as_str());
    for key in ["name", "description", "repository"] {
        assert!(manifest[key].as_str().is_some_and(|v| !v.is_empty()), "{key}");
    }
    let servers = manifest["language_servers"].as_table().expect("[language_servers]");
    let declared: Vec<&str> = servers.iter().map(|(name, _)| name).collect();
    assert_eq!(declared, [constant(&source, "SERVER")], "the servers extension.toml declares");
    let languages: Vec<&str> = servers["agentc"]["languages"]
        .as_array()
        .expect("`languages`, a list")
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    // Zed's names of the languages of the files agentc reads.
    for language in ["Markdown", "JSON", "YAML", "TOML"] {
        assert!(languages.contains(&language), "{language} is missing from {languages:?}");
    }
}

#[test]
fn the_extension_builds_for_zed_and_registers_itself() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let libdir = Command::new(&rustc)
        .args(["--print", "target-libdir", "--target", "wasm32-wasip2"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| PathBuf::from(common::text(&out.stdout).trim()));
    if !libdir.is_some_and(|dir| dir.is_dir()) {
        assert!(
            std::env::var_os("CI").is_none(),
            "the wasm32-wasip2 target is not installed in CI (.ci/run adds it)"
        );
        eprintln!(
            "skipped: the wasm32-wasip2 target is not installed (rustup target add wasm32-wasip2)"
        );
        return;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("zed");
    let built = Command::new(cargo)
        .args(["build", "--offline", "--locked", "--target", "wasm32-wasip2", "--target-dir"])
        .arg(&target)
        .current_dir(extension())
        .env("RUSTC_WRAPPER", "")
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "editors/zed does not build (its dependencies are fetched by `cargo fetch \
         --manifest-path editors/zed/Cargo.toml`):\n{}",
        common::text(&built.stderr)
    );
    let wasm = std::fs::read(target.join("wasm32-wasip2/debug/agentc_zed.wasm")).unwrap();
    let mut found = Found::default();
    walk(&wasm, &mut found);
    assert!(found.component, "Zed loads a WebAssembly component");
    // The pinned `zed_extension_api`, as three big-endian u16.
    let cargo = read_toml(&extension().join("Cargo.toml"));
    let pinned = cargo["dependencies"]["zed_extension_api"].as_str().unwrap();
    let version: Vec<u8> = pinned
        .trim_start_matches('=')
        .split('.')
        .flat_map(|n| n.parse::<u16>().unwrap().to_be_bytes())
        .collect();
    assert_eq!(found.api_versions, [version], "the `zed:api-version` sections");
    assert!(found.exports.iter().any(|e| e == "init-extension"), "{:?}", found.exports);
}

/// What a WebAssembly binary holds, its nested modules and components
/// included.
#[derive(Default)]
struct Found {
    component: bool,
    api_versions: Vec<Vec<u8>>,
    /// The core modules' export names.
    exports: Vec<String>,
}

/// An unsigned LEB128 number at `*at`, moving past it.
fn leb(bytes: &[u8], at: &mut usize) -> usize {
    let (mut value, mut shift) = (0usize, 0);
    loop {
        let byte = bytes[*at];
        *at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return value;
        }
        shift += 7;
    }
}

/// A name: its length, then UTF-8.
fn name(bytes: &[u8], at: &mut usize) -> String {
    let len = leb(bytes, at);
    let text = String::from_utf8_lossy(&bytes[*at..*at + len]).into_owned();
    *at += len;
    text
}

/// Walks the sections of the module or component in `bytes`: custom
/// sections (id 0) everywhere, a core module's exports (id 7), and a
/// component's nested modules (id 1) and components (id 4).
fn walk(bytes: &[u8], found: &mut Found) {
    assert_eq!(&bytes[..4], b"\0asm", "not WebAssembly");
    let component = bytes[4..8] == [0x0d, 0x00, 0x01, 0x00];
    found.component |= component;
    let mut at = 8;
    while at < bytes.len() {
        let id = bytes[at];
        at += 1;
        let size = leb(bytes, &mut at);
        let section = &bytes[at..at + size];
        at += size;
        match (id, component) {
            (0, _) => {
                let mut inner = 0;
                if name(section, &mut inner) == "zed:api-version" {
                    found.api_versions.push(section[inner..].to_vec());
                }
            }
            (1 | 4, true) => walk(section, found),
            (7, false) => {
                let mut inner = 0;
                for _ in 0..leb(section, &mut inner) {
                    found.exports.push(name(section, &mut inner));
                    inner += 1; // the kind
                    leb(section, &mut inner); // the index
                }
            }
            _ => {}
        }
    }
}
