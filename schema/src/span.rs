//! Source positions carried through decoding.
//!
//! Every value a diagnostic may point at is decoded as [`Spanned<T>`]: the value
//! plus the byte range it was written at. The compiler's decoder recognises the
//! wrapper by [`SPANNED_NAME`] and fills the span in; any other serde
//! deserializer (say `serde_json` loading a lockfile) sees a transparent newtype
//! and the span stays empty.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::{Serialize, Serializer};

/// A byte range in a source file, `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// A span that was never filled in (the value did not come from a source file).
    pub const fn is_unknown(&self) -> bool {
        self.start == 0 && self.end == 0
    }

    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// The newtype name the compiler's decoder looks for.
pub const SPANNED_NAME: &str = "$agentc::Spanned";
/// The struct name of a mapping that may also be written as one string
/// (`- send_customer_email` or `- name: send_customer_email …`): the
/// compiler's decoder hands a string to the visitor's `visit_str`, and checks a
/// mapping's keys against the fields as it does any struct's.
pub const SHORTHAND_NAME: &str = "$agentc::Shorthand";
/// The keys the decoder hands to [`Spanned`]'s visitor.
pub const SPANNED_FIELDS: &[&str] = &["$start", "$end", "$text_at", "$value"];

/// A value with the byte range it was written at.
///
/// Equality, ordering and hashing look at the value only, so two mentions of one
/// name compare equal wherever they were written.
#[derive(Clone, Debug, Default)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
    /// For text: the offset where its characters appear verbatim in the file
    /// (inside the quotes, if quoted), when they do. Positions of tokens inside
    /// the text are exact only then; see [`Spanned::token_span`].
    pub text_at: Option<usize>,
}

impl<T> Spanned<T> {
    pub const fn new(value: T, span: Span) -> Self {
        Spanned { value, span, text_at: None }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Spanned<U> {
        Spanned { value: f(self.value), span: self.span, text_at: self.text_at }
    }

    pub fn as_ref(&self) -> Spanned<&T> {
        Spanned { value: &self.value, span: self.span, text_at: self.text_at }
    }

    /// Where bytes `range` of the text are in the file: exact when the text
    /// is written verbatim, otherwise the span of the whole value.
    pub fn token_span(&self, range: std::ops::Range<usize>) -> Span {
        match self.text_at {
            Some(at) => Span::new(at + range.start, at + range.end),
            None => self.span,
        }
    }

    /// Where bytes `range` of the text are written verbatim in the file, if
    /// they are: the place a fix may replace them without touching quotes.
    pub fn verbatim(&self, range: std::ops::Range<usize>) -> Option<Span> {
        self.text_at.map(|at| Span::new(at + range.start, at + range.end))
    }

    pub fn into_inner(self) -> T {
        self.value
    }
}

impl Spanned<String> {
    /// The token at bytes `range` of the text, with its own span (exact when
    /// the text is written verbatim).
    pub fn token(&self, range: std::ops::Range<usize>) -> Spanned<String> {
        Spanned {
            value: self.value[range.clone()].to_owned(),
            span: self.token_span(range.clone()),
            text_at: self.text_at.map(|at| at + range.start),
        }
    }
}

impl<T> Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl<T: Hash> Hash for Spanned<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.hash(state)
    }
}

impl<T: PartialOrd> PartialOrd for Spanned<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.value.partial_cmp(&other.value)
    }
}

impl<T: Ord> Ord for Spanned<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.value.cmp(&other.value)
    }
}

impl<T: Serialize> Serialize for Spanned<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<T: JsonSchema> JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SpannedVisitor<T>(std::marker::PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for SpannedVisitor<T> {
            type Value = Spanned<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value")
            }

            fn visit_newtype_struct<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<Self::Value, D::Error> {
                T::deserialize(deserializer).map(|value| Spanned::new(value, Span::default()))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut start = None;
                let mut end = None;
                let mut text_at = None;
                let mut value = None;
                while let Some(key) = map.next_key::<&str>()? {
                    match key {
                        "$start" => start = Some(map.next_value()?),
                        "$end" => end = Some(map.next_value()?),
                        "$text_at" => text_at = Some(map.next_value()?),
                        "$value" => value = Some(map.next_value()?),
                        other => return Err(de::Error::unknown_field(other, SPANNED_FIELDS)),
                    }
                }
                match (start, end, value) {
                    (Some(start), Some(end), Some(value)) => {
                        Ok(Spanned { value, span: Span::new(start, end), text_at })
                    }
                    _ => Err(de::Error::missing_field("$value")),
                }
            }
        }

        deserializer.deserialize_newtype_struct(SPANNED_NAME, SpannedVisitor(Default::default()))
    }
}

/// The marker that opens a located error message (see [`error_at`]).
pub const LOCATED_ERROR_MARK: char = '\u{1}';

/// A decode error that points at `span` rather than at the value being decoded.
///
/// Used where a container notices a problem with one of its items (a repeated
/// list entry): the compiler's decoder reads the span back out of the message
/// with [`split_located`]; other deserializers show the plain message.
pub fn error_at<E: de::Error>(span: Span, msg: impl fmt::Display) -> E {
    if span.is_unknown() {
        E::custom(msg)
    } else {
        E::custom(format_args!(
            "{LOCATED_ERROR_MARK}{}:{}{LOCATED_ERROR_MARK}{msg}",
            span.start, span.end
        ))
    }
}

/// Splits a message made by [`error_at`] into its span and its text.
pub fn split_located(msg: &str) -> (Option<Span>, &str) {
    let parsed = msg.strip_prefix(LOCATED_ERROR_MARK).and_then(|rest| {
        let (range, text) = rest.split_once(LOCATED_ERROR_MARK)?;
        let (start, end) = range.split_once(':')?;
        Some((Span::new(start.parse().ok()?, end.parse().ok()?), text))
    });
    match parsed {
        Some((span, text)) => (Some(span), text),
        None => (None, msg),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn located_error_round_trips() {
        let err: serde_json::Error = error_at(Span::new(4, 9), "`a` is listed twice");
        let text = err.to_string();
        assert_eq!(split_located(&text), (Some(Span::new(4, 9)), "`a` is listed twice"));
        assert_eq!(split_located("plain"), (None, "plain"));
    }

    #[test]
    fn spanned_is_transparent_for_other_formats() {
        let v: Spanned<String> = serde_json::from_str("\"x\"").unwrap();
        assert_eq!(v.value, "x");
        assert!(v.span.is_unknown());
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"x\"");
    }
}
