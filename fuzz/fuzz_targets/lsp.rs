#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentc_compiler::fuzzing::lsp(data));
