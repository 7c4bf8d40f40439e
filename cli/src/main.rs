use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use mimalloc::MiMalloc;

/// The binary's allocator, chosen per run before the first thread starts.
///
/// A run that compiles again and again (`agentc lsp`, `check --watch`) gets
/// mimalloc: it allocates and frees many small values from several threads at
/// once, and glibc's allocator spent a third of a registry edit's time in
/// `malloc`, `free` and their locks (issue #26). A one-shot command gets the
/// system's: mimalloc's pages kept per thread made a 10,000-skill `check`'s
/// peak 171 MiB against 125 MiB, for 5% of its time (BENCHMARKS.md, issue #41).
/// A block is freed by whichever allocator made it, so what was allocated
/// before the choice is still freed correctly.
struct PerRun;

static LONG_RUNNING: AtomicBool = AtomicBool::new(false);

/// Whether `ptr` came from mimalloc: its page map, which answers for any
/// address (none before mimalloc's first allocation).
fn from_mimalloc(ptr: *mut u8) -> bool {
    // SAFETY: a pure lookup, defined for any pointer.
    unsafe { libmimalloc_sys::mi_is_in_heap_region(ptr.cast()) }
}

// SAFETY: every method forwards to an allocator that upholds `GlobalAlloc`'s
// contract, and a block is always given back to the one that made it.
unsafe impl GlobalAlloc for PerRun {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if LONG_RUNNING.load(Ordering::Relaxed) {
            unsafe { MiMalloc.alloc(layout) }
        } else {
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if LONG_RUNNING.load(Ordering::Relaxed) {
            unsafe { MiMalloc.alloc_zeroed(layout) }
        } else {
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if from_mimalloc(ptr) {
            unsafe { MiMalloc.dealloc(ptr, layout) }
        } else {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if from_mimalloc(ptr) {
            unsafe { MiMalloc.realloc(ptr, layout, new_size) }
        } else {
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }
}

#[global_allocator]
static ALLOCATOR: PerRun = PerRun;

/// `agentc lsp` and `agentc check --watch`: the runs that compile more than
/// once. A folder argument named `lsp` picks mimalloc too, which costs only
/// memory; a global option's value before the command needs no parsing here.
fn long_running(args: &[OsString]) -> bool {
    args.iter().skip(1).any(|arg| arg == "lsp" || arg == "--watch")
}

/// glibc raises its `mmap` threshold to the size of each large block freed,
/// so a one-shot compile's later large blocks (files read, tables grown) come
/// from the heap, whose space stays the process's once they are freed. Kept at
/// its default (128 KiB) instead, they are mapped and given back when freed:
/// a 10,000-skill `lock`'s peak 127.8 → 126.0 MiB, `check`'s 126.2 → 125.7
/// MiB, for about 1% of their time (issue #41). A value the user set through
/// `MALLOC_MMAP_THRESHOLD_` stands.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fix_mmap_threshold() {
    use std::ffi::c_int;
    unsafe extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    const M_MMAP_THRESHOLD: c_int = -3;
    if std::env::var_os("MALLOC_MMAP_THRESHOLD_").is_none() {
        // SAFETY: glibc's documented tuning call, made before any other
        // thread exists; it only changes where later blocks come from.
        unsafe { mallopt(M_MMAP_THRESHOLD, 128 * 1024) };
    }
}

fn main() {
    let args: Vec<OsString> = std::env::args_os().collect();
    // Before any other thread exists, so every later allocation sees it.
    let long_running = long_running(&args);
    LONG_RUNNING.store(long_running, Ordering::Relaxed);
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if !long_running {
        fix_mmap_threshold();
    }
    let terminal = std::io::stderr().is_terminal();
    // A terminal that cannot move the cursor (`TERM=dumb`) gets no progress line.
    let redraws = terminal && std::env::var_os("TERM").is_none_or(|term| term != "dumb");
    let color = agentc_cli::auto_color();
    // Not locked for the whole run: `agentc lsp` writes from its own thread.
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    let mut io =
        agentc_cli::Io { stdout: &mut stdout, stderr: &mut stderr, color, progress: redraws };
    let code = agentc_cli::run(args, &mut io);
    std::process::exit(code);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn the_runs_that_compile_again_get_mimalloc() {
        assert!(long_running(&args("agentc lsp")));
        assert!(long_running(&args("agentc --color never lsp")));
        assert!(long_running(&args("agentc check --watch agents")));
        assert!(!long_running(&args("agentc check agents")));
        assert!(!long_running(&args("agentc lock --check")));
    }

    #[test]
    fn a_block_goes_back_to_the_allocator_that_made_it() {
        let layout = Layout::from_size_align(64, 8).unwrap();
        // SAFETY: each block is written within its layout and freed once, by `PerRun`.
        unsafe {
            let system = System.alloc(layout);
            let mimalloc = MiMalloc.alloc(layout);
            assert!(!system.is_null() && !mimalloc.is_null());
            assert!(!from_mimalloc(system));
            assert!(from_mimalloc(mimalloc));
            system.write_bytes(1, 64);
            let grown = PerRun.realloc(mimalloc, layout, 4096);
            assert!(from_mimalloc(grown));
            PerRun.dealloc(system, layout);
            PerRun.dealloc(grown, Layout::from_size_align(4096, 8).unwrap());
        }
    }
}
