#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentc_lsp::fuzzing::lsp(data));
