//! Validated scalar and list types shared by every file kind.
//!
//! Each type checks itself while it is decoded and describes itself in the JSON
//! Schemas, so a rule is written once and holds for both.

use std::collections::HashSet;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

use crate::span::{Spanned, error_at};

/// A string that is not blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Text(pub String);

impl Text {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        if s.trim().is_empty() {
            return Err(de::Error::custom("the value is blank; write some text or remove the key"));
        }
        Ok(Text(s))
    }
}

impl JsonSchema for Text {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Text".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "minLength": 1, "pattern": "\\S" })
    }
}

/// The Semantic Versioning 2.0.0 grammar, from semver.org, for JSON Schemas.
pub const SEMVER_PATTERN: &str = r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$";

/// A semantic version (`1.4.0`, `2.0.0-rc.1`), kept as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Version(pub String);

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        match semver::Version::parse(&s) {
            Ok(_) => Ok(Version(s)),
            Err(err) => Err(de::Error::custom(format_args!(
                "`{s}` is not a semantic version ({err}); write MAJOR.MINOR.PATCH, e.g. `1.0.0`"
            ))),
        }
    }
}

impl JsonSchema for Version {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Version".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": SEMVER_PATTERN,
            "description": "A semantic version, MAJOR.MINOR.PATCH with optional -prerelease and +build.",
            "examples": ["1.0.0", "2.1.0-rc.1"]
        })
    }
}

/// An argument hint (`argument-hint`), shown while the user types. Claude
/// Code's own documentation writes `argument-hint: [message]`, which YAML
/// reads as a list of one: a list is kept as the hint it was written as,
/// each entry in brackets (`[message]`, `[pr] [priority]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Hint(pub String);

impl Hint {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// [`Hint`]'s forms.
pub(crate) struct HintForms;

impl Expecting for HintForms {
    const WHAT: &'static str = "a string, or a list of argument names";
}

impl<'de> Deserialize<'de> for Hint {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Written::<HintForms>::deserialize(deserializer)? {
            Written::One(text) if text.trim().is_empty() => {
                Err(de::Error::custom("the value is blank; write some text or remove the key"))
            }
            Written::One(text) => Ok(Hint(text)),
            Written::List(items, _) if items.is_empty() => {
                Err(de::Error::custom("the list is empty; name the arguments or remove the key"))
            }
            Written::List(items, _) => Ok(Hint(
                items.iter().map(|item| format!("[{}]", item.value)).collect::<Vec<_>>().join(" "),
            )),
        }
    }
}

impl JsonSchema for Hint {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hint".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "The arguments, as shown while typing: a string, or a list of argument names (`[message]` in YAML is a list of one).",
            "oneOf": [
                { "type": "string", "minLength": 1, "pattern": "\\S" },
                { "type": "array", "items": { "type": "string", "minLength": 1, "pattern": "\\S" }, "minItems": 1 }
            ]
        })
    }
}

/// Finds the first entry that repeats an earlier one.
fn first_repeat<T: Eq + Hash>(items: &[Spanned<T>]) -> Option<&Spanned<T>> {
    let mut seen: HashSet<&T> = HashSet::with_capacity(items.len());
    items.iter().find(|item| !seen.insert(&item.value))
}

fn repeat_error<E: de::Error, T: fmt::Display>(item: &Spanned<T>) -> E {
    error_at(item.span, format_args!("`{}` is listed twice; remove the repeated entry", item.value))
}

/// A JSON array whose entries are unique, with at least `MIN` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List<T, const MIN: usize = 0>(pub Vec<Spanned<T>>);

impl<T, const MIN: usize> List<T, MIN> {
    pub fn iter(&self) -> std::slice::Iter<'_, Spanned<T>> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a, T, const MIN: usize> IntoIterator for &'a List<T, MIN> {
    type Item = &'a Spanned<T>;
    type IntoIter = std::slice::Iter<'a, Spanned<T>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: Serialize, const MIN: usize> Serialize for List<T, MIN> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, T, const MIN: usize> Deserialize<'de> for List<T, MIN>
where
    T: Deserialize<'de> + Eq + Hash + fmt::Display,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let items = Vec::<Spanned<T>>::deserialize(deserializer)?;
        if items.len() < MIN {
            return Err(de::Error::custom(if MIN == 1 {
                "the list is empty; it needs at least one entry".to_owned()
            } else {
                format!("the list has {} entries; it needs at least {MIN}", items.len())
            }));
        }
        if let Some(item) = first_repeat(&items) {
            return Err(repeat_error(item));
        }
        Ok(List(items))
    }
}

impl<T: JsonSchema, const MIN: usize> JsonSchema for List<T, MIN> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("List_of_{}", T::schema_name()).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let items = generator.subschema_for::<T>();
        let mut schema = json_schema!({ "type": "array", "items": items, "uniqueItems": true });
        if MIN > 0 {
            schema.insert("minItems".into(), MIN.into());
        }
        schema
    }
}

/// Trims spaces and tabs only: any other character, even an invisible one
/// (U+00A0), is part of a name, so a name that looks right but is not fails.
pub(crate) fn trim_blanks(text: &str) -> &str {
    text.trim_matches([' ', '\t'])
}

/// `text` without blanks around it, reusing its allocation when it has none.
fn trimmed(text: String) -> String {
    match trim_blanks(&text) {
        trim if trim.len() == text.len() => text,
        trim => trim.to_owned(),
    }
}

const EMPTY_LIST: &str = "the list is empty; remove the key, or list at least one entry";

/// A list with at least one entry: an empty list in frontmatter says nothing,
/// and is more likely a mistake than a choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonEmpty<T>(pub Vec<T>);

impl<T> std::ops::Deref for NonEmpty<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<'a, T> IntoIterator for &'a NonEmpty<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: Serialize> Serialize for NonEmpty<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NonEmpty<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let items = Vec::<T>::deserialize(deserializer)?;
        if items.is_empty() {
            return Err(de::Error::custom(EMPTY_LIST));
        }
        Ok(NonEmpty(items))
    }
}

impl<T: JsonSchema> JsonSchema for NonEmpty<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("NonEmpty_{}", T::schema_name()).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let items = generator.subschema_for::<T>();
        json_schema!({ "type": "array", "items": items, "minItems": 1 })
    }
}

/// A list of names written as a YAML list or as one comma-separated string
/// (`tools: lookup_order, issue_refund`), as frontmatter allows both.
///
/// Each entry keeps its own span: in a comma string, the span of its token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameList(pub Vec<Spanned<String>>);

impl NameList {
    pub fn iter(&self) -> std::slice::Iter<'_, Spanned<String>> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Splits a comma-separated string into spanned entries.
    ///
    /// Each entry gets the span of its own token when the string's characters
    /// appear verbatim in the file (`text.text_at`); otherwise (escapes, folded
    /// lines) the span of the whole string.
    pub fn split_commas<E: de::Error>(text: &Spanned<String>) -> Result<NameList, E> {
        let mut items = Vec::new();
        let mut offset = 0;
        for piece in text.value.split(',') {
            let token = trim_blanks(piece);
            let lead = piece.len() - piece.trim_start_matches([' ', '\t']).len();
            let start = offset + lead;
            let item = text.token(start..start + token.len());
            if token.is_empty() {
                return Err(error_at(
                    item.span,
                    "an entry of this comma-separated list is blank; remove the extra comma",
                ));
            }
            items.push(item);
            offset += piece.len() + 1;
        }
        Ok(NameList(items))
    }
}

impl<'a> IntoIterator for &'a NameList {
    type Item = &'a Spanned<String>;
    type IntoIter = std::slice::Iter<'a, Spanned<String>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Serialize for NameList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// The two forms every list-like field may be written in — one string, or
/// a list of strings — before the string is split. `E` says what the field
/// expects, for the message when it is neither.
pub(crate) enum Written<E> {
    One(String),
    List(Vec<Spanned<Text>>, PhantomData<E>),
}

/// What a list-like field expects, in words.
pub(crate) trait Expecting {
    const WHAT: &'static str;
}

/// [`NameList`]'s forms.
pub(crate) struct Names;

impl Expecting for Names {
    const WHAT: &'static str = "a list of names or a comma-separated string";
}

impl<'de, E: Expecting> Deserialize<'de> for Written<E> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WrittenVisitor<E>(PhantomData<E>);

        impl<'de, E: Expecting> Visitor<'de> for WrittenVisitor<E> {
            type Value = Written<E>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(E::WHAT)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Written<E>, A::Error> {
                // At its size when the reader knows it (kept as it is made);
                // bounded, as serde's own lists are.
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element::<Spanned<Text>>()? {
                    items.push(item);
                }
                Ok(Written::List(items, PhantomData))
            }

            fn visit_str<Er: de::Error>(self, text: &str) -> Result<Written<E>, Er> {
                Ok(Written::One(text.to_owned()))
            }
        }

        deserializer.deserialize_any(WrittenVisitor(PhantomData))
    }
}

impl<'de> Deserialize<'de> for NameList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Spanned::<Written<Names>>::deserialize(deserializer)?;
        if matches!(&raw.value, Written::List(items, _) if items.is_empty()) {
            return Err(de::Error::custom(EMPTY_LIST));
        }
        let list = match raw.value {
            Written::List(items, _) => {
                NameList(items.into_iter().map(|t| t.map(|t| trimmed(t.0))).collect())
            }
            Written::One(text) => NameList::split_commas(&Spanned {
                value: text,
                span: raw.span,
                text_at: raw.text_at,
            })?,
        };
        if let Some(item) = first_repeat(&list.0) {
            return Err(repeat_error(item));
        }
        Ok(list)
    }
}

impl JsonSchema for NameList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NameList".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A list of names, or one string of names separated by commas.",
            "oneOf": [
                {
                    "type": "array",
                    "items": { "type": "string", "minLength": 1, "pattern": "\\S" },
                    "uniqueItems": true,
                    "minItems": 1
                },
                { "type": "string", "pattern": "^[^,]*\\S[^,]*(,[^,]*\\S[^,]*)*$" }
            ]
        })
    }
}

/// A list of examples for a schema, written as one space-separated string.
#[doc(hidden)]
pub fn example_list(words: &str) -> Vec<&str> {
    words.split(' ').collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    fn text(value: &str, span: Span, text_at: Option<usize>) -> Spanned<String> {
        Spanned { value: value.to_owned(), span, text_at }
    }

    #[test]
    fn comma_tokens_get_their_own_spans() {
        let written = text("a, bb ,c", Span::new(10, 18), Some(10));
        let list: NameList = NameList::split_commas::<serde_json::Error>(&written).unwrap();
        let spans: Vec<_> = list.iter().map(|i| (i.value.as_str(), i.span)).collect();
        assert_eq!(
            spans,
            [("a", Span::new(10, 11)), ("bb", Span::new(13, 15)), ("c", Span::new(17, 18))]
        );
        // quoted: the text starts after the opening quote
        let quoted = text("a,b", Span::new(0, 5), Some(1));
        let list = NameList::split_commas::<serde_json::Error>(&quoted).unwrap();
        assert_eq!(list.0[1].span, Span::new(3, 4));
        // folded over lines: every token gets the whole value
        let folded = text("a, b", Span::new(0, 7), None);
        let list = NameList::split_commas::<serde_json::Error>(&folded).unwrap();
        assert_eq!(list.0[1].span, Span::new(0, 7));
    }

    #[test]
    fn blank_and_repeated_entries_are_refused() {
        let blank = text("a,,b", Span::default(), None);
        assert!(NameList::split_commas::<serde_json::Error>(&blank).is_err());
        assert!(serde_json::from_str::<NameList>(r#"["a","a"]"#).is_err());
        assert!(serde_json::from_str::<List<Text>>(r#"["a"," "]"#).is_err());
        assert!(serde_json::from_str::<List<Text, 1>>("[]").is_err());
        assert_eq!(serde_json::from_str::<NameList>(r#""a, b""#).unwrap().len(), 2);
    }

    #[test]
    fn versions_follow_semver() {
        assert!(serde_json::from_str::<Version>(r#""1.2.3-rc.1+b5""#).is_ok());
        assert!(serde_json::from_str::<Version>(r#""1.2""#).is_err());
        assert!(serde_json::from_str::<Version>(r#""01.2.3""#).is_err());
    }
}
