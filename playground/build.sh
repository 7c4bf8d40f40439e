#!/usr/bin/env bash
# Builds the playground's site into a folder (default: playground-site under the target
# folder): the page's static files (playground/www) and agentc's compiler as a WebAssembly
# module beside them. Serve the folder over HTTP and open index.html (docs/playground.md).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
out="${1:-$target/playground-site}"
# A cdylib for this build only (the crate is an rlib to the workspace), with an 8 MiB stack
# as the command line's main thread has on Linux (wasm-ld's default is 1 MiB).
cargo rustc --quiet --locked --package agentc-playground --lib --target wasm32-unknown-unknown \
    --profile playground --crate-type cdylib -- -C link-arg=-zstack-size=8388608
mkdir -p "$out"
cp playground/www/* "$out/"
cp "$target/wasm32-unknown-unknown/playground/agentc_playground.wasm" "$out/agentc.wasm"
