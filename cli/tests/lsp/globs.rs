//! A glob too long for globset in each host field that holds globs: the
//! server publishes one warning at it and keeps serving, where globset's
//! panic used to end it.

use serde_json::json;

use crate::client::{Client, url};
use crate::common;

#[test]
fn a_long_glob_is_a_warning_and_the_server_lives() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let files = common::long_globs(&root);
    let mut client = Client::start(&root);
    for (path, line, column) in files {
        let found = client.diagnostics(&url(&root.join(path)), None);
        assert_eq!(found.len(), 1, "{path}: {found:?}");
        let d = &found[0];
        assert_eq!(d["code"], "invalid-value", "{path}");
        assert_eq!(d["severity"], 2, "{path}");
        let (line, column) = (line - 1, column - 1);
        assert_eq!(
            d["range"],
            json!({
                "start": { "line": line, "character": column },
                "end": { "line": line, "character": column + common::LONG_GLOB_STARS },
            }),
            "{path}"
        );
        assert!(
            d["message"].as_str().unwrap().starts_with(
                "the glob is not read: it is 100000 bytes long, and agentc reads globs of at most 4096\nhelp: "
            ),
            "{path}: {d}"
        );
    }
    client.shutdown();
}
