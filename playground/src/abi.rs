//! The module's exports, for the page's `agentc.js`: bytes in the module's
//! memory, JSON or UTF-8 text both ways, no bindings generator.
//!
//! - `alloc(len) -> ptr` reserves `len` bytes for the page to write a
//!   request into; the call that reads them frees them.
//! - `check(ptr, len)`, `explain(ptr, len)`, `examples()` and `version()`
//!   answer with a pointer to a 4-byte little-endian length followed by that
//!   many bytes of UTF-8; the page reads them, then frees them with
//!   `dealloc(ptr, 4 + length)`.
//! - `panic_message() -> ptr` answers likewise with the message of the last
//!   panic (empty when there was none): a panic traps, and the page asks
//!   for the message before it starts a fresh instance.

use std::sync::{Mutex, Once};

static PANIC: Mutex<String> = Mutex::new(String::new());
static HOOK: Once = Once::new();

/// Records a panic's message before the trap.
fn record_panics() {
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            if let Ok(mut last) = PANIC.lock() {
                *last = info.to_string();
            }
        }))
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// # Safety
/// `ptr` and `len` are those of one block `alloc` or an answer gave, not
/// freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    // SAFETY: the block is a boxed slice of `len` bytes, as the caller says.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// The request `alloc` gave: taken back, so it is freed when read.
unsafe fn take(ptr: *mut u8, len: usize) -> Box<[u8]> {
    // SAFETY: as `dealloc`.
    unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) }
}

/// `text` as an answer: its length, then its bytes.
fn answer(text: &str) -> *mut u8 {
    let mut bytes = Vec::with_capacity(4 + text.len());
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    Box::into_raw(bytes.into_boxed_slice()).cast()
}

/// # Safety
/// `ptr` and `len` are those of a block `alloc` gave, holding the request.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn check(ptr: *mut u8, len: usize) -> *mut u8 {
    record_panics();
    let request = unsafe { take(ptr, len) };
    answer(&crate::check_json(&request))
}

/// # Safety
/// As [`check`]; the request is a diagnostic code. The answer is empty for
/// a string that is none.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn explain(ptr: *mut u8, len: usize) -> *mut u8 {
    record_panics();
    let code = unsafe { take(ptr, len) };
    let page = std::str::from_utf8(&code).ok().and_then(crate::explain);
    answer(page.as_deref().unwrap_or_default())
}

#[unsafe(no_mangle)]
pub extern "C" fn examples() -> *mut u8 {
    record_panics();
    answer(&crate::examples_json())
}

#[unsafe(no_mangle)]
pub extern "C" fn version() -> *mut u8 {
    answer(env!("CARGO_PKG_VERSION"))
}

#[unsafe(no_mangle)]
pub extern "C" fn panic_message() -> *mut u8 {
    let last = PANIC.lock().map(|last| last.clone()).unwrap_or_default();
    answer(&last)
}
