use std::io::IsTerminal;

/// A compile allocates and frees many small values from several threads at
/// once (rayon's, the language server's compile and the thread freeing the
/// compilation before): glibc's allocator spent a third of a registry edit's
/// time in `malloc`, `free` and their locks (BENCHMARKS.md, issue #26).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let terminal = std::io::stderr().is_terminal();
    // A terminal that cannot move the cursor (`TERM=dumb`) gets no progress line.
    let redraws = terminal && std::env::var_os("TERM").is_none_or(|term| term != "dumb");
    let color = agentc_cli::auto_color();
    // Not locked for the whole run: `agentc lsp` writes from its own thread.
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    let mut io =
        agentc_cli::Io { stdout: &mut stdout, stderr: &mut stderr, color, progress: redraws };
    let code = agentc_cli::run(std::env::args_os(), &mut io);
    std::process::exit(code);
}
