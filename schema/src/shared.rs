//! [`SharedStr`]: a part of a file's text, shared rather than copied.

use std::borrow::Cow;
use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A string that may be a slice of a larger shared text: a skill's body is
/// the tail of its file, and the compiler keeps one copy of every file, so
/// the lockfile's bodies point into it. Serialized, it is a plain string; it
/// reads like a `&str` (`Deref`), and compares by its characters.
#[derive(Clone)]
pub struct SharedStr {
    text: Arc<str>,
    range: Range<usize>,
}

impl SharedStr {
    /// `text[range]`, sharing `text`. Like slicing a `str`, it panics when
    /// `range` is not a slice of `text` on character boundaries.
    pub fn slice(text: Arc<str>, range: Range<usize>) -> SharedStr {
        let _ = &text[range.clone()];
        SharedStr { text, range }
    }

    pub fn as_str(&self) -> &str {
        &self.text[self.range.clone()]
    }

    /// The whole text this is a slice of, and where in it: code generation
    /// finds the file a body comes from by its text.
    pub fn parts(&self) -> (&Arc<str>, Range<usize>) {
        (&self.text, self.range.clone())
    }
}

impl From<String> for SharedStr {
    fn from(text: String) -> SharedStr {
        let range = 0..text.len();
        SharedStr { text: text.into(), range }
    }
}

impl From<&str> for SharedStr {
    fn from(text: &str) -> SharedStr {
        SharedStr { text: text.into(), range: 0..text.len() }
    }
}

impl Default for SharedStr {
    fn default() -> SharedStr {
        SharedStr::from("")
    }
}

impl Deref for SharedStr {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for SharedStr {
    fn eq(&self, other: &SharedStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for SharedStr {}

impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SharedStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SharedStr, D::Error> {
        String::deserialize(deserializer).map(SharedStr::from)
    }
}

impl JsonSchema for SharedStr {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        String::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        String::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_reads_serializes_and_compares_as_its_text() {
        let file: Arc<str> = "---\nname: a\n---\nBody.\n".into();
        let body = SharedStr::slice(file.clone(), 16..file.len());
        assert_eq!(&*body, "Body.\n");
        assert_eq!(body, SharedStr::from("Body.\n"));
        assert_eq!(serde_json::to_string(&body).ok().as_deref(), Some("\"Body.\\n\""));
        let back: SharedStr = serde_json::from_str("\"Body.\\n\"").expect("a string");
        assert_eq!(back, body);
    }
}
