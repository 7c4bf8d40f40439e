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
//!
//! The functions are exported under these names in the WebAssembly build
//! only; natively they are ordinary functions, so the tests and the lints
//! reach them too.

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

#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// # Safety
/// `ptr` and `len` are those of one block `alloc` or an answer gave, not
/// freed before.
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
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
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub unsafe extern "C" fn check(ptr: *mut u8, len: usize) -> *mut u8 {
    record_panics();
    let request = unsafe { take(ptr, len) };
    answer(&crate::check_json(&request))
}

/// # Safety
/// As [`check`]; the request is a diagnostic code. The answer is empty for
/// a string that is none.
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub unsafe extern "C" fn explain(ptr: *mut u8, len: usize) -> *mut u8 {
    record_panics();
    let code = unsafe { take(ptr, len) };
    let page = std::str::from_utf8(&code).ok().and_then(crate::explain);
    answer(page.as_deref().unwrap_or_default())
}

#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn examples() -> *mut u8 {
    record_panics();
    answer(&crate::examples_json())
}

#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn version() -> *mut u8 {
    answer(env!("CARGO_PKG_VERSION"))
}

#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn panic_message() -> *mut u8 {
    let last = PANIC.lock().map(|last| last.clone()).unwrap_or_default();
    answer(&last)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the page does: a request written into a block `alloc` gave,
    /// the answer's length read, its bytes read, then freed.
    fn call(export: unsafe extern "C" fn(*mut u8, usize) -> *mut u8, request: &str) -> String {
        let ptr = alloc(request.len());
        // SAFETY: `alloc` gave `request.len()` bytes; the export takes them back; the
        // answer is its length and that many bytes, freed here with that length.
        unsafe {
            std::ptr::copy_nonoverlapping(request.as_ptr(), ptr, request.len());
            read(export(ptr, request.len()))
        }
    }

    /// # Safety
    /// `answer` is an answer of this module, not freed before.
    unsafe fn read(answer: *mut u8) -> String {
        let mut length = [0u8; 4];
        // SAFETY: as the caller says: four bytes of length, then the text.
        unsafe {
            std::ptr::copy_nonoverlapping(answer, length.as_mut_ptr(), 4);
            let length = u32::from_le_bytes(length) as usize;
            let text = std::slice::from_raw_parts(answer.add(4), length).to_vec();
            dealloc(answer, 4 + length);
            String::from_utf8(text).unwrap()
        }
    }

    #[test]
    fn requests_and_answers_cross_as_the_page_sends_them() {
        let skill = "---\nname: a\ndescription: A.\nallowed-tools: Raed\n---\nA.\n";
        let request =
            serde_json::json!({"files": [{"path": ".claude/skills/a/SKILL.md", "text": skill}]});
        let answer: serde_json::Value =
            serde_json::from_str(&call(check, &request.to_string())).unwrap();
        assert_eq!(answer["diagnostics"][0]["code"], "unknown-tool", "{answer}");
        assert!(call(explain, "unknown-tool").starts_with("# unknown-tool"));
        assert_eq!(call(explain, "nothing-of-the-kind"), "");
        assert!(call(check, "not json").starts_with("{\"error\":"));
        // SAFETY: answers of this module.
        let examples = unsafe { read(examples()) };
        assert!(examples.starts_with("[{\"id\":\"starter\""), "{examples}");
        assert_eq!(unsafe { read(version()) }, env!("CARGO_PKG_VERSION"));
        assert_eq!(unsafe { read(panic_message()) }, "");
    }
}
