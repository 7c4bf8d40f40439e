//! Typed decoding of a [`Node`] tree into the schema types, reporting every
//! problem in the document rather than the first.
//!
//! The schema types are plain serde types, and serde stops at the first error.
//! To find them all, decoding runs in passes: when a pass fails at a value, the
//! value is recorded as a problem and set aside — a list entry is skipped, any
//! other value is replaced by a placeholder ("hole") that decodes as the
//! emptiest valid value — and the next pass continues past it. A missing field
//! gets a hole too. Each pass fixes one problem, so passes are bounded by the
//! number of problems (and by [`MAX_PASSES`]).
//!
//! Unknown keys never reach serde: the decoder knows each struct's fields,
//! records an unknown key with its span and skips it, so one pass sees them all.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use agentc_schema::Span;
use agentc_schema::span::{SHORTHAND_NAME, SPANNED_NAME, split_located};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;

use super::tree::{Node, Value};

/// Each method: a hole answers as [`Hole`] would; a real node as `deserialize_any`.
macro_rules! hole_or_any {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                if self.is_hole() {
                    return self.hole().$method(visitor).map_err(Error::in_hole);
                }
                self.deserialize_any(visitor)
            }
        )*
    };
}

/// How many problems one document may report before decoding gives up.
pub const MAX_PASSES: usize = 64;

/// A problem found while decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A required field is absent from the mapping at `span`.
    MissingField { field: &'static str, span: Span },
    /// A value is of the wrong type or fails its rule.
    Invalid { span: Span, message: String },
    /// A key the struct does not declare.
    UnknownField { key: String, span: Span, expected: &'static [&'static str] },
}

/// The result of decoding: the value when every problem could be stepped
/// around, and the problems.
#[derive(Debug)]
pub struct Decoded<T> {
    pub value: Option<T>,
    pub problems: Vec<Problem>,
    /// Unknown keys of the top-level mapping with their values (kept as metadata).
    pub extra: Vec<(String, serde_json::Value)>,
    /// Top-level keys whose values were replaced by a placeholder: checks that
    /// depend on them would only repeat the problem already reported.
    pub recovered: Vec<String>,
}

/// Decodes `root` as `T`.
pub fn decode<T: DeserializeOwned>(root: &Node) -> Decoded<T> {
    let mut state = State::default();
    let mut problems = Vec::new();
    let mut value = None;
    let mut exhausted = true;
    for _ in 0..MAX_PASSES {
        state.unknown.borrow_mut().clear();
        match T::deserialize(NodeDe { node: root, state: &state, role: Role::Root }) {
            Ok(v) => {
                value = Some(v);
                exhausted = false;
                break;
            }
            Err(err) => {
                // A placeholder the type refuses (a list that may not be empty):
                // the value is already reported; try a fuller placeholder once.
                if let Some(level) = err.at.and_then(|at| state.holes.get_mut(&at.id)) {
                    if *level == 0 {
                        *level = 1;
                        continue;
                    }
                    break;
                }
                if err.in_hole {
                    break;
                }
                let mut at = err.at.unwrap_or(At {
                    id: id(root),
                    span: root.span,
                    role: Role::Root,
                    parent: None,
                });
                // A list that refuses one of its entries (a repeat) names the entry:
                // skip that entry, keeping the rest of the list.
                if let Some(entry) = err.span.and_then(|span| list_entry_at(root, span)) {
                    at = entry;
                }
                match err.missing {
                    Some(field) => {
                        problems.push(Problem::MissingField { field, span: at.span });
                        let holes = &mut state.missing_holes;
                        let fields = holes.entry(at.id).or_default();
                        if fields.contains(&field) {
                            break;
                        }
                        fields.push(field);
                    }
                    None => {
                        // A list whose bad entries were skipped may now break a
                        // rule of its own (it is empty): that is the same problem.
                        if !state.lists_with_skips.contains(&at.id) {
                            let span = err.span.unwrap_or(at.span);
                            problems.push(Problem::Invalid { span, message: err.message });
                        }
                        let progress = match at.role {
                            Role::Element => {
                                state.lists_with_skips.extend(at.parent);
                                state.skipped.insert(at.id)
                            }
                            Role::Value => state.holes.insert(at.id, 0).is_none(),
                            Role::Root => false,
                        };
                        if !progress {
                            break;
                        }
                    }
                }
            }
        }
    }
    if exhausted && problems.len() >= MAX_PASSES {
        problems.push(Problem::Invalid {
            span: Span::new(root.span.start, root.span.start),
            message: format!(
                "agentc stops after {MAX_PASSES} problems in one file; fix these and check again"
            ),
        });
    }
    let recovered = match &root.value {
        Value::Map(entries) => entries
            .iter()
            .filter(|e| state.holes.contains_key(&id(&e.value)))
            .map(|e| e.key.clone())
            .collect(),
        _ => Vec::new(),
    };
    let unknown = state.unknown.into_inner();
    let extra = unknown
        .values()
        .filter(|u| u.top_level)
        .map(|u| (u.key.clone(), u.value.clone()))
        .collect();
    problems.extend(unknown.into_values().map(|u| Problem::UnknownField {
        key: u.key,
        span: u.span,
        expected: u.expected,
    }));
    Decoded { value, problems, extra, recovered }
}

/// The list entry written at exactly `span`, located as an entry of its list.
fn list_entry_at(node: &Node, span: Span) -> Option<At> {
    match &node.value {
        Value::Seq(items) => items.iter().find_map(|item| {
            if item.span == span {
                Some(At { id: id(item), span, role: Role::Element, parent: Some(id(node)) })
            } else {
                list_entry_at(item, span)
            }
        }),
        Value::Map(entries) => entries.iter().find_map(|e| list_entry_at(&e.value, span)),
        _ => None,
    }
}

/// A node's identity for the recovery sets: its address, stable while the tree lives.
fn id(node: &Node) -> usize {
    node as *const Node as usize
}

#[derive(Default)]
struct State {
    skipped: HashSet<usize>,
    lists_with_skips: HashSet<usize>,
    /// Values replaced by a placeholder, and how full it is (0: empty, 1: a
    /// list placeholder holds one placeholder entry, for lists that may not be empty).
    holes: HashMap<usize, u8>,
    missing_holes: HashMap<usize, Vec<&'static str>>,
    unknown: RefCell<BTreeMap<(usize, usize), Unknown>>,
}

struct Unknown {
    key: String,
    span: Span,
    expected: &'static [&'static str],
    top_level: bool,
    value: serde_json::Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Root,
    Element,
    Value,
}

#[derive(Clone, Copy, Debug)]
struct At {
    id: usize,
    span: Span,
    role: Role,
    /// For a list entry: the list.
    parent: Option<usize>,
}

/// A decode error, located at the innermost node it came out of.
#[derive(Debug)]
pub struct Error {
    message: String,
    /// Set by `error_at` in the schema crate: a position more precise than the node.
    span: Option<Span>,
    missing: Option<&'static str>,
    at: Option<At>,
    in_hole: bool,
}

impl Error {
    fn located(mut self, node: &Node, role: Role) -> Self {
        if self.at.is_none() {
            self.at = Some(At { id: id(node), span: node.span, role, parent: None });
        }
        self
    }

    /// Records the list a located entry belongs to.
    fn in_list(mut self, list: &Node) -> Self {
        if let Some(at) =
            self.at.as_mut().filter(|at| at.role == Role::Element && at.parent.is_none())
        {
            at.parent = Some(id(list));
        }
        self
    }

    fn in_hole(mut self) -> Self {
        self.in_hole = true;
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        let text = msg.to_string();
        let (span, message) = split_located(&text);
        Error { message: message.to_owned(), span, missing: None, at: None, in_hole: false }
    }

    fn invalid_type(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        let found = match unexp {
            de::Unexpected::Unit => "null (an empty value)".to_owned(),
            de::Unexpected::Map => "a mapping".to_owned(),
            de::Unexpected::Seq => "a list".to_owned(),
            de::Unexpected::Str(s) => format!("the string \"{s}\""),
            de::Unexpected::Float(f) => format!("the number {f}"),
            de::Unexpected::Signed(i) => format!("the integer {i}"),
            de::Unexpected::Unsigned(u) => format!("the integer {u}"),
            de::Unexpected::Bool(b) => format!("the boolean {b}"),
            other => other.to_string(),
        };
        let mut message = format!("expected {}, found {found}", plain_expected(exp));
        match unexp {
            de::Unexpected::Unit => message.push_str("; give a value or remove the key"),
            de::Unexpected::Float(_)
            | de::Unexpected::Signed(_)
            | de::Unexpected::Unsigned(_)
            | de::Unexpected::Bool(_)
                if exp.to_string().contains("string") =>
            {
                message.push_str("; put it in quotes to make it a string");
            }
            _ => {}
        }
        de::Error::custom(message)
    }

    fn invalid_value(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        de::Error::custom(format_args!("expected {}, found {unexp}", plain_expected(exp)))
    }

    fn missing_field(field: &'static str) -> Self {
        Error {
            message: format!("missing field `{field}`"),
            span: None,
            missing: Some(field),
            at: None,
            in_hole: false,
        }
    }
}

/// serde's words for what it expected, in the words of agent files.
fn plain_expected(exp: &dyn de::Expected) -> String {
    match exp.to_string().as_str() {
        "a map" => "a JSON object (a mapping of keys to values)".to_owned(),
        "a nonzero u32" => "a whole number of at least 1".to_owned(),
        "a sequence" => "a list".to_owned(),
        other => other.to_owned(),
    }
}

/// Deserializes one node.
struct NodeDe<'a> {
    node: &'a Node,
    state: &'a State,
    role: Role,
}

impl<'a> NodeDe<'a> {
    fn hole(&self) -> Hole {
        Hole { filled: self.state.holes.get(&id(self.node)).is_some_and(|level| *level > 0) }
    }

    fn is_hole(&self) -> bool {
        self.state.holes.contains_key(&id(self.node))
    }

    fn seq(&self, items: &'a [Node]) -> Seq<'a> {
        Seq { list: self.node, items: items.iter(), state: self.state }
    }
}

impl<'de> de::Deserializer<'de> for NodeDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.is_hole() {
            return self.hole().deserialize_any(visitor).map_err(Error::in_hole);
        }
        match &self.node.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Int(i) => visitor.visit_i64(*i),
            Value::UInt(u) => visitor.visit_u64(*u),
            Value::Float(f) => visitor.visit_f64(*f),
            Value::BigInt(text) => {
                // A quantity takes the nearest float; a refusal shows the digits as written.
                let near = text.parse::<f64>().unwrap_or(f64::INFINITY);
                visitor.visit_f64(near).map_err(|mut err: Error| {
                    err.message = err
                        .message
                        .replace(&format!("the number {near}"), &format!("the integer {text}"));
                    err
                })
            }
            Value::Str(s) => visitor.visit_borrowed_str(s),
            Value::Seq(items) => visitor.visit_seq(self.seq(items)),
            Value::Map(entries) => visitor.visit_map(Map {
                entries: entries.iter(),
                pending: None,
                state: self.state,
                fields: None,
                extra_holes: Vec::new(),
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // An explicit null is not "absent": the inner type refuses it, with its position.
        if self.is_hole() { visitor.visit_none() } else { visitor.visit_some(self) }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if self.is_hole() {
            return self.hole().deserialize_newtype_struct(name, visitor).map_err(Error::in_hole);
        }
        if name == SPANNED_NAME {
            let span = self.node.span;
            let text_at = self.node.text_at;
            return visitor.visit_map(SpannedMap { span, text_at, value: Some(self), step: 0 });
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if self.is_hole() {
            return self.hole().deserialize_struct(name, fields, visitor).map_err(Error::in_hole);
        }
        if let (SHORTHAND_NAME, Value::Str(s)) = (name, &self.node.value) {
            return visitor.visit_borrowed_str(s);
        }
        let Value::Map(entries) = &self.node.value else {
            return Err(de::Error::custom(format_args!(
                "expected a mapping of `key: value` pairs, found {}",
                self.node.describe()
            )));
        };
        let extra_holes = self.state.missing_holes.get(&id(self.node)).cloned().unwrap_or_default();
        let top_level = self.role == Role::Root;
        let node = self.node;
        visitor
            .visit_map(Map {
                entries: entries.iter(),
                pending: None,
                state: self.state,
                fields: Some((fields, top_level)),
                extra_holes,
            })
            .map_err(|e| e.located(node, self.role))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if self.is_hole() {
            return self.hole().deserialize_enum(name, variants, visitor).map_err(Error::in_hole);
        }
        match &self.node.value {
            Value::Str(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            _ => Err(de::Error::custom(format_args!(
                "expected one of {}, found {}",
                one_of(variants),
                self.node.describe()
            ))),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    hole_or_any! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_seq deserialize_map deserialize_identifier
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }
}

/// `a`, `b` or `c` — for messages.
pub fn one_of(items: &[&str]) -> String {
    match items {
        [] => "nothing".to_owned(),
        [only] => format!("`{only}`"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|i| format!("`{i}`")).collect();
            format!("{} or `{last}`", rest.join(", "))
        }
    }
}

struct Seq<'a> {
    list: &'a Node,
    items: std::slice::Iter<'a, Node>,
    state: &'a State,
}

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        for node in self.items.by_ref() {
            if self.state.skipped.contains(&id(node)) {
                continue;
            }
            let de = NodeDe { node, state: self.state, role: Role::Element };
            return seed
                .deserialize(de)
                .map(Some)
                .map_err(|e| e.located(node, Role::Element).in_list(self.list));
        }
        Ok(None)
    }

    /// The items left (those skipped included): a list is allocated once,
    /// at its size, not grown by doubling.
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'a> {
    entries: std::slice::Iter<'a, super::tree::Entry>,
    pending: Option<&'a Node>,
    state: &'a State,
    /// The struct's fields (and whether it is the document's top level), when
    /// decoding a struct: other keys are recorded as unknown and skipped.
    fields: Option<(&'static [&'static str], bool)>,
    /// Missing fields to present as holes after the real entries.
    extra_holes: Vec<&'static str>,
}

impl<'de> MapAccess<'de> for Map<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        for entry in self.entries.by_ref() {
            if let Some((fields, top_level)) = self.fields
                && !fields.contains(&entry.key.as_str())
            {
                self.state.unknown.borrow_mut().insert(
                    (entry.key_span.start, entry.key_span.end),
                    Unknown {
                        key: entry.key.clone(),
                        span: entry.key_span,
                        expected: fields,
                        top_level,
                        value: entry.value.to_json(),
                    },
                );
                continue;
            }
            self.pending = Some(&entry.value);
            let key = KeyDe { key: &entry.key, span: entry.key_span };
            return seed.deserialize(key).map(Some);
        }
        if let Some(field) = self.extra_holes.pop() {
            self.pending = None;
            return seed.deserialize(field.into_deserializer()).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.pending.take() {
            Some(node) => {
                let de = NodeDe { node, state: self.state, role: Role::Value };
                seed.deserialize(de).map_err(|e| e.located(node, Role::Value))
            }
            None => seed.deserialize(Hole::EMPTY).map_err(Error::in_hole),
        }
    }

    /// The entries left, with the holes to come: a map is allocated once.
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() + self.extra_holes.len())
    }
}

/// A mapping key: a string, which may be asked for with its span.
struct KeyDe<'a> {
    key: &'a str,
    span: Span,
}

impl<'de> de::Deserializer<'de> for KeyDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.key)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == SPANNED_NAME {
            // Escapes and folds only ever make a key longer than its text: as
            // long as the text (or the text and two quotes), it is verbatim.
            let text_at = match self.span.len().checked_sub(self.key.len()) {
                Some(0) => Some(self.span.start),
                Some(2) => Some(self.span.start + 1),
                _ => None,
            };
            return visitor.visit_map(SpannedMap {
                span: self.span,
                text_at,
                value: Some(self),
                step: 0,
            });
        }
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Presents a value as `{$start, $end, [$text_at,] $value}` to `Spanned`'s visitor.
struct SpannedMap<D> {
    span: Span,
    text_at: Option<usize>,
    value: Option<D>,
    step: u8,
}

impl<'de, D: de::Deserializer<'de, Error = Error>> MapAccess<'de> for SpannedMap<D> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.step == 2 && self.text_at.is_none() {
            self.step = 3;
        }
        let key = match self.step {
            0 => "$start",
            1 => "$end",
            2 => "$text_at",
            3 => "$value",
            _ => return Ok(None),
        };
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        self.step += 1;
        match self.step {
            1 => seed.deserialize(self.span.start.into_deserializer()),
            2 => seed.deserialize(self.span.end.into_deserializer()),
            3 => seed.deserialize(self.text_at.unwrap_or_default().into_deserializer()),
            _ => match self.value.take() {
                Some(de) => seed.deserialize(de),
                None => Err(de::Error::custom("a spanned value was read twice")),
            },
        }
    }
}

/// Hole methods that answer with a fixed value.
macro_rules! hole_values {
    ($($method:ident => $visit:ident($value:expr)),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                visitor.$visit($value)
            }
        )*
    };
}

/// The placeholder for a value set aside: the emptiest value of any type.
///
/// Strings decode as `0.0.0`, which is neither blank nor an invalid version,
/// so the placeholder passes the schema's own checks.
#[derive(Clone, Copy)]
struct Hole {
    /// A list holds one placeholder entry instead of none.
    filled: bool,
}

impl Hole {
    const EMPTY: Hole = Hole { filled: false };
}

impl<'de> IntoDeserializer<'de, Error> for Hole {
    type Deserializer = Hole;
    fn into_deserializer(self) -> Hole {
        self
    }
}

impl<'de> de::Deserializer<'de> for Hole {
    type Error = Error;

    hole_values! {
        deserialize_bool => visit_bool(false),
        deserialize_u64 => visit_u64(1),
        deserialize_u32 => visit_u64(1),
        deserialize_i64 => visit_i64(1),
        deserialize_f64 => visit_f64(0.0),
        deserialize_i8 => visit_i64(1),
        deserialize_i16 => visit_i64(1),
        deserialize_i32 => visit_i64(1),
        deserialize_u8 => visit_u64(1),
        deserialize_u16 => visit_u64(1),
        deserialize_f32 => visit_f64(0.0),
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str("0.0.0")
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str("0.0.0")
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_none()
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let entries = if self.filled { 1 } else { 0 };
        let items = std::iter::repeat_n(Hole::EMPTY, entries);
        visitor.visit_seq(de::value::SeqDeserializer::<_, Error>::new(items))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor
            .visit_map(de::value::MapDeserializer::<_, Error>::new(std::iter::empty::<((), ())>()))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == SPANNED_NAME {
            return visitor.visit_map(SpannedMap {
                span: Span::default(),
                text_at: None,
                value: Some(self),
                step: 0,
            });
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let first = variants.first().copied().unwrap_or_default();
        visitor.visit_enum(UnitVariant(first))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct tuple tuple_struct ignored_any
    }
}

struct UnitVariant(&'static str);

impl<'de> EnumAccess<'de> for UnitVariant {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let value = seed.deserialize(de::value::BorrowedStrDeserializer::new(self.0))?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(Hole::EMPTY)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        Hole::EMPTY.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        Hole::EMPTY.deserialize_map(visitor)
    }
}

use de::Deserializer as _;
