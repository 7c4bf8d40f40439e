//! The protocol's framing on a byte stream: `Content-Length` headers, then a
//! JSON body. Reading is a pure function over [`BufRead`], bounded in every
//! part, so a client (or anything writing to our stdin) cannot make the
//! server allocate ahead of the bytes it sends, read an unbounded line, or
//! panic.

use std::io::{self, BufRead, Read, Write};

use lsp_server::{ErrorCode, Message};
use serde_json::Value;

/// The largest message body accepted, far above any real document (the
/// compiler reads no input file past 16 MiB by default). A larger one ends
/// the session: skipping it would lose a document's text or a request
/// without the client knowing.
pub const MAX_MESSAGE_SIZE: u64 = 64 * 1024 * 1024;

/// The most bytes a message's header block may take: real headers are a
/// `Content-Length` and perhaps a `Content-Type`, well under 100 bytes.
pub const MAX_HEADER_SIZE: usize = 4096;

/// What one well-framed body was.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// A body that is no message the server can take, with the answer it
    /// gets, if any: JSON-RPC answers a request it cannot read, not a
    /// notification or a response.
    Invalid {
        reason: String,
        reply: Option<Value>,
    },
}

/// Why the stream cannot be read on: after a broken frame there is no
/// telling where the next message starts.
#[derive(Debug)]
pub enum FramingError {
    Io(io::Error),
    /// The stream ended inside a header block.
    EndedInHeader,
    /// The stream ended inside a body.
    EndedInBody {
        received: u64,
        declared: u64,
    },
    /// A header line ends without `\r\n`.
    NoCarriageReturn,
    /// The header block is longer than [`MAX_HEADER_SIZE`].
    HeaderTooLong,
    /// A header line without `name: value`.
    Malformed(String),
    NoLength,
    TwoLengths,
    /// A `Content-Length` that is not a decimal number.
    BadLength(String),
    /// A `Content-Length` over [`MAX_MESSAGE_SIZE`], as written.
    TooLarge(String),
}

impl std::fmt::Display for FramingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FramingError::Io(err) => write!(f, "cannot read a message: {err}"),
            FramingError::EndedInHeader => f.write_str("the input ended inside a message's header"),
            FramingError::EndedInBody { received, declared } => write!(
                f,
                "the input ended inside a message: {received} of the {declared} bytes its \
                 `Content-Length` declares arrived"
            ),
            FramingError::NoCarriageReturn => {
                f.write_str("a header line ends with a bare line feed, not `\\r\\n`")
            }
            FramingError::HeaderTooLong => {
                write!(f, "a message's header is longer than {MAX_HEADER_SIZE} bytes")
            }
            FramingError::Malformed(line) => {
                write!(f, "a header line is not `name: value`: {line:?}")
            }
            FramingError::NoLength => f.write_str("a message has no `Content-Length` header"),
            FramingError::TwoLengths => f.write_str(
                "a message has two `Content-Length` headers; which one holds is unknown",
            ),
            FramingError::BadLength(value) => {
                write!(f, "`Content-Length: {value}` is not a number of bytes")
            }
            FramingError::TooLarge(value) => write!(
                f,
                "refused a message of {value} bytes: the most accepted is {MAX_MESSAGE_SIZE} \
                 bytes (64 MiB)"
            ),
        }
    }
}

impl std::error::Error for FramingError {}

impl From<io::Error> for FramingError {
    fn from(err: io::Error) -> Self {
        FramingError::Io(err)
    }
}

/// Reads the next message: `None` when the input ends between messages.
pub fn read(input: &mut impl BufRead) -> Result<Option<Incoming>, FramingError> {
    let Some(length) = read_header(input)? else { return Ok(None) };
    let mut body = Vec::new();
    // `read_to_end` grows the buffer as bytes arrive: a length declared but
    // never sent costs nothing.
    let received = Read::take(&mut *input, length).read_to_end(&mut body)? as u64;
    if received < length {
        return Err(FramingError::EndedInBody { received, declared: length });
    }
    Ok(Some(classify(&body)))
}

/// What the server sends.
#[derive(Debug)]
pub enum Outgoing {
    Message(Message),
    /// An error response `lsp_server`'s types cannot hold: its id is `null`,
    /// or a number outside LSP's range, as the request had it.
    Raw(Value),
}

/// Writes a message as the protocol frames it.
pub fn write(output: &mut impl Write, message: &Outgoing) -> io::Result<()> {
    match message {
        Outgoing::Message(message) => message.write(output),
        Outgoing::Raw(value) => {
            let body = serde_json::to_string(value)?;
            write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
            output.flush()
        }
    }
}

/// The body length a header block declares; `None` at the end of input.
fn read_header(input: &mut impl BufRead) -> Result<Option<u64>, FramingError> {
    let mut length = None;
    let mut budget = MAX_HEADER_SIZE;
    let mut started = false;
    loop {
        let mut line = Vec::new();
        let read = Read::take(&mut *input, budget as u64).read_until(b'\n', &mut line)?;
        budget -= read;
        match line.strip_suffix(b"\n") {
            None if read == 0 && !started => return Ok(None),
            None if budget == 0 => return Err(FramingError::HeaderTooLong),
            None => return Err(FramingError::EndedInHeader),
            Some(line) => {
                started = true;
                let line = line.strip_suffix(b"\r").ok_or(FramingError::NoCarriageReturn)?;
                if line.is_empty() {
                    return length.map(Some).ok_or(FramingError::NoLength);
                }
                let line = String::from_utf8_lossy(line);
                let (name, value) = line
                    .split_once(':')
                    .ok_or_else(|| FramingError::Malformed(line.clone().into_owned()))?;
                if name.trim().eq_ignore_ascii_case("Content-Length") {
                    if length.is_some() {
                        return Err(FramingError::TwoLengths);
                    }
                    length = Some(parse_length(value.trim())?);
                }
            }
        }
    }
}

fn parse_length(value: &str) -> Result<u64, FramingError> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FramingError::BadLength(value.to_owned()));
    }
    // Only digits: failing to parse is overflowing, which is too large too.
    match value.parse::<u64>() {
        Ok(length) if length <= MAX_MESSAGE_SIZE => Ok(length),
        _ => Err(FramingError::TooLarge(value.to_owned())),
    }
}

/// What a body is. JSON-RPC 2.0 decides the answers: a request that cannot
/// be taken gets an error response with its own `id` ("It MUST be the same
/// as the value of the id member in the Request Object", §5), or `null`
/// where the id cannot be determined (a body that is not JSON or not an
/// object, an id that is neither a number nor a string: "If there was an
/// error in detecting the id in the Request object (e.g. Parse error/Invalid
/// Request), it MUST be Null"); a response is never answered (§5).
fn classify(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(err) => {
            let reason = format!("the message is not JSON: {err}");
            return invalid(Some(Value::Null), ErrorCode::ParseError, reason);
        }
    };
    let Some(object) = value.as_object() else {
        let reason = "the message is not a JSON object (the protocol has no batches)".to_owned();
        return invalid(Some(Value::Null), ErrorCode::InvalidRequest, reason);
    };
    let is_response = !object.contains_key("method")
        && (object.contains_key("result") || object.contains_key("error"));
    let answer = |id: Value| (!is_response).then_some(id);
    let id = object.get("id").cloned();
    if let Some(id) = id.as_ref().filter(|id| !is_lsp_id(id)) {
        let what = if id.is_number() { "is out of range" } else { "is not an LSP id" };
        let reason = format!(
            "the id {id} {what}: an LSP id is a string or an integer from {} to {}",
            i32::MIN,
            i32::MAX
        );
        let determined = if id.is_number() || id.is_string() { id.clone() } else { Value::Null };
        return invalid(answer(determined), ErrorCode::InvalidRequest, reason);
    }
    let id = id.unwrap_or(Value::Null);
    let unlike = match object.get("method") {
        Some(method) if !method.is_string() => Some("its `method` is not a string"),
        None if !is_response => Some(
            "it has no `method` (a request or notification), nor `result` or `error` (a response)",
        ),
        _ => None,
    };
    if let Some(unlike) = unlike {
        let reason = format!("the message is no request, response or notification: {unlike}");
        return invalid(answer(id), ErrorCode::InvalidRequest, reason);
    }
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        // Requests and notifications take any `params`: only a response's
        // `error` can be malformed here.
        Err(err) => {
            invalid(answer(id), ErrorCode::InvalidRequest, format!("a malformed response: {err}"))
        }
    }
}

fn invalid(id: Option<Value>, code: ErrorCode, reason: String) -> Incoming {
    Incoming::Invalid { reply: id.map(|id| error(id, code, &reason)), reason }
}

/// LSP's `integer | string`, its integers being 32-bit.
fn is_lsp_id(id: &Value) -> bool {
    id.is_string() || id.as_i64().is_some_and(|n| i32::try_from(n).is_ok())
}

/// An error response.
pub fn error(id: Value, code: ErrorCode, message: &str) -> Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code as i32, "message": message },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What reading `input` gives, message by message, until it ends or fails.
    fn read_all(mut input: &[u8]) -> (Vec<String>, Option<String>) {
        let mut read_ok = Vec::new();
        loop {
            match read(&mut input) {
                Ok(None) => return (read_ok, None),
                Ok(Some(Incoming::Message(m))) => read_ok.push(format!("{m:?}")),
                Ok(Some(Incoming::Invalid { reason, reply })) => {
                    read_ok.push(format!("invalid: {reason}; reply {}", reply.unwrap_or_default()));
                }
                Err(err) => return (read_ok, Some(err.to_string())),
            }
        }
    }

    fn failure(input: &[u8]) -> String {
        let (read_ok, failed) = read_all(input);
        assert!(read_ok.is_empty(), "{read_ok:?}");
        failed.expect("a framing error")
    }

    #[test]
    fn messages_follow_each_other_until_the_input_ends() {
        let one = br#"{"jsonrpc":"2.0","method":"exit"}"#;
        let mut input = format!("Content-Length: {}\r\n\r\n", one.len()).into_bytes();
        input.extend_from_slice(one);
        // Names are case-insensitive; other headers are let be.
        input.extend_from_slice(b"content-length:  2 \r\nContent-Type: application/json\r\n\r\n{}");
        let (read_ok, failed) = read_all(&input);
        assert_eq!(failed, None);
        assert_eq!(
            read_ok,
            [
                r#"Notification(Notification { method: "exit", params: Null })"#,
                r#"invalid: the message is no request, response or notification: it has no `method` (a request or notification), nor `result` or `error` (a response); reply {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is no request, response or notification: it has no `method` (a request or notification), nor `result` or `error` (a response)"}}"#,
            ]
        );
        assert_eq!(read_all(b""), (vec![], None));
    }

    #[test]
    fn a_length_past_the_bound_is_refused_before_any_body_byte() {
        for length in [
            "18446744073709551615",
            "100000000000",
            "4000000000",
            "67108865",
            "99999999999999999999999",
        ] {
            assert_eq!(
                failure(format!("Content-Length: {length}\r\n\r\n").as_bytes()),
                format!(
                    "refused a message of {length} bytes: the most accepted is 67108864 bytes (64 MiB)"
                )
            );
        }
        // At the bound: read, as far as the bytes go.
        assert_eq!(
            failure(b"Content-Length: 67108864\r\n\r\n{\"a\""),
            "the input ended inside a message: 4 of the 67108864 bytes its `Content-Length` declares arrived"
        );
    }

    #[test]
    fn a_broken_header_is_refused() {
        let cases: [(&[u8], &str); 9] = [
            (b"Content-Type: x\r\n\r\n{}", "a message has no `Content-Length` header"),
            (b"\r\n{}", "a message has no `Content-Length` header"),
            (
                b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
                "a message has two `Content-Length` headers; which one holds is unknown",
            ),
            (b"Content-Length: two\r\n\r\n{}", "`Content-Length: two` is not a number of bytes"),
            (b"Content-Length: -1\r\n\r\n{}", "`Content-Length: -1` is not a number of bytes"),
            (b"Content-Length: +2\r\n\r\n{}", "`Content-Length: +2` is not a number of bytes"),
            (b"Content-Length: 2\n\n{}", "a header line ends with a bare line feed, not `\\r\\n`"),
            (
                b"Content-Length 2\r\n\r\n{}",
                "a header line is not `name: value`: \"Content-Length 2\"",
            ),
            (b"Content-Len", "the input ended inside a message's header"),
        ];
        for (input, expected) in cases {
            assert_eq!(failure(input), expected, "{}", String::from_utf8_lossy(input));
        }
        assert_eq!(
            failure(b"Content-Length: 10\r\n\r\n{}"),
            "the input ended inside a message: 2 of the 10 bytes its `Content-Length` declares arrived"
        );
    }

    #[test]
    fn a_header_is_read_no_further_than_its_bound() {
        let mut endless = b"Content-Length: 2\r\nX-Padding: ".to_vec();
        endless.resize(1 << 20, b'x');
        let mut input = &endless[..];
        let err = read(&mut input).unwrap_err();
        assert_eq!(err.to_string(), "a message's header is longer than 4096 bytes");
        assert_eq!(endless.len() - input.len(), MAX_HEADER_SIZE, "bytes consumed");
    }

    fn reply(body: &str) -> Value {
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        match read(&mut framed.as_bytes()) {
            Ok(Some(Incoming::Invalid { reply, .. })) => reply.unwrap_or_default(),
            other => panic!("{body} read as {other:?}"),
        }
    }

    #[test]
    fn a_request_with_an_id_outside_lsp_gets_an_error_with_that_id() {
        let range = "an LSP id is a string or an integer from -2147483648 to 2147483647";
        for id in ["4294967296", "1.5", "-1099511627776", "2147483648"] {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{}}}}"#
            );
            let message = format!("the id {id} is out of range: {range}");
            let id: Value = serde_json::from_str(id).unwrap();
            assert_eq!(reply(&body), error(id, ErrorCode::InvalidRequest, &message), "{body}");
        }
        // An id that is no number or string cannot be determined: `null`.
        assert_eq!(
            reply(r#"{"jsonrpc":"2.0","id":[1],"method":"shutdown"}"#),
            error(
                Value::Null,
                ErrorCode::InvalidRequest,
                &format!("the id [1] is not an LSP id: {range}")
            )
        );
        // A response is never answered, whatever its id.
        assert_eq!(reply(r#"{"jsonrpc":"2.0","id":1.5,"result":null}"#), Value::Null);
        // In range: a request like any other.
        let body = r#"{"jsonrpc":"2.0","id":-2147483648,"method":"x"}"#;
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let read_back = read(&mut framed.as_bytes());
        assert!(
            matches!(read_back, Ok(Some(Incoming::Message(Message::Request(_))))),
            "{read_back:?}"
        );
    }

    #[test]
    fn a_body_that_is_no_message_gets_the_error_json_rpc_says() {
        let parse = reply("{\"id\": 1,");
        assert_eq!(parse["id"], Value::Null);
        assert_eq!(parse["error"]["code"], -32700);
        assert_eq!(
            parse["error"]["message"],
            "the message is not JSON: EOF while parsing a value at line 1 column 9"
        );
        let batch = reply(r#"[{"jsonrpc":"2.0","method":"exit"}]"#);
        assert_eq!(
            batch,
            error(
                Value::Null,
                ErrorCode::InvalidRequest,
                "the message is not a JSON object (the protocol has no batches)"
            )
        );
        // `method` not a string: no notification, and JSON-RPC answers it.
        let bad_method = reply(r#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#);
        assert_eq!(
            (&bad_method["id"], &bad_method["error"]["code"]),
            (&Value::Null, &(-32600).into())
        );
        let bad_request = reply(r#"{"jsonrpc":"2.0","id":7,"method":null}"#);
        assert_eq!(
            (&bad_request["id"], &bad_request["error"]["code"]),
            (&7.into(), &(-32600).into())
        );
    }
}
