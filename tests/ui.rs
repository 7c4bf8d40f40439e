//! The `agents!` macro under rustc: every mistake in an agents directory is a
//! compile error that names the agent file, line and column (snapshots in
//! `tests/ui/*.stderr`; regenerate with `TRYBUILD=overwrite`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass.rs");
    t.pass("tests/ui/wild.rs");
    t.compile_fail("tests/ui/unknown-tool.rs");
    t.compile_fail("tests/ui/unknown-route-target.rs");
    t.compile_fail("tests/ui/bad-guard.rs");
    t.compile_fail("tests/ui/name-shadow.rs");
    t.compile_fail("tests/ui/missing-entry-point.rs");
    t.compile_fail("tests/ui/yaml-syntax.rs");
    t.compile_fail("tests/ui/host-tool-undeclared.rs");
    t.compile_fail("tests/ui/host-tool-unimplemented.rs");
    t.compile_fail("tests/ui/registry-tool-unimplemented.rs");
    t.compile_fail("tests/ui/stale-lock.rs");
    t.compile_fail("tests/ui/no-cascade.rs");
    t.compile_fail("tests/ui/wild-unknown-tool.rs");
}
