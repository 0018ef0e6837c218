//! JavaScript's `JSON.parse`, the reader of the agents that ship JavaScript: exactly the
//! grammar of ECMA-404 (whitespace is only tab, line feed, carriage return and space; no
//! comments, trailing commas, single quotes or leading byte order mark), a key that comes twice
//! keeping its last value.
//!
//! Where a JavaScript value has no `serde_json` twin the value read is approximate, never the
//! verdict: a number beyond `f64` (JavaScript's `Infinity`) reads as `null`, and a lone
//! surrogate escape in a string as U+FFFD.

use serde_json::{Map, Value};

/// Containers nested deeper than this are not followed (`JSON.parse` has no such bound, so
/// this is skilldeck's refusal, not the agent's): jsonc-parser, the editor, stops at 512 too,
/// and a value nested much deeper could not even be dropped without exhausting the stack.
pub const DEEPEST: usize = 512;

/// Where the text stops being JSON, or skilldeck stops following it: the byte and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub at: usize,
    pub reason: &'static str,
    /// Whether it is nested deeper than [`DEEPEST`] there (which `JSON.parse` would read).
    pub too_deep: bool,
}

enum Frame {
    Array(Vec<Value>),
    /// The object so far and the key whose value is being read.
    Object(Map<String, Value>, String),
}

/// `text` as `JSON.parse(text)` reads it.
///
/// # Errors
/// [`Failure`] where `JSON.parse` would throw.
pub fn parse(text: &str) -> Result<Value, Failure> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let value = 'value: loop {
        reader.space();
        // A value: a scalar, or the opening of a container.
        let mut value = match reader.peek() {
            Some(b'{') => {
                reader.at += 1;
                reader.space();
                if reader.eat(b'}') {
                    Value::Object(Map::new())
                } else {
                    let key = reader.key()?;
                    reader.deeper(&stack)?;
                    stack.push(Frame::Object(Map::new(), key));
                    continue 'value;
                }
            }
            Some(b'[') => {
                reader.at += 1;
                reader.space();
                if reader.eat(b']') {
                    Value::Array(Vec::new())
                } else {
                    reader.deeper(&stack)?;
                    stack.push(Frame::Array(Vec::new()));
                    continue 'value;
                }
            }
            _ => reader.scalar()?,
        };
        // Put it in its container, closing every container that ends here.
        loop {
            reader.space();
            match stack.last_mut() {
                None => break 'value value,
                Some(Frame::Array(items)) => {
                    items.push(value);
                    if reader.eat(b',') {
                        continue 'value;
                    }
                    if !reader.eat(b']') {
                        return Err(reader.fail("expected , or ] after an array element"));
                    }
                }
                Some(Frame::Object(map, key)) => {
                    map.insert(std::mem::take(key), value);
                    if reader.eat(b',') {
                        reader.space();
                        *key = reader.key()?;
                        continue 'value;
                    }
                    if !reader.eat(b'}') {
                        return Err(reader.fail("expected , or } after an object member"));
                    }
                }
            }
            // The frame just filled and closed, which `last_mut` found.
            value = match stack.pop() {
                Some(Frame::Array(items)) => Value::Array(items),
                Some(Frame::Object(map, _)) => Value::Object(map),
                None => Value::Null,
            };
        }
    };
    reader.space();
    if reader.at < reader.bytes.len() {
        return Err(reader.fail("text after the end of the JSON value"));
    }
    Ok(value)
}

struct Reader<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let here = self.peek() == Some(byte);
        if here {
            self.at += 1;
        }
        here
    }

    fn fail(&self, reason: &'static str) -> Failure {
        Failure {
            at: self.at,
            reason,
            too_deep: false,
        }
    }

    fn deeper(&self, stack: &[Frame]) -> Result<(), Failure> {
        if stack.len() < DEEPEST {
            return Ok(());
        }
        Err(Failure {
            at: self.at,
            reason: "nested deeper than skilldeck follows",
            too_deep: true,
        })
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// An object's key and its colon.
    fn key(&mut self) -> Result<String, Failure> {
        if self.peek() != Some(b'"') {
            return Err(self.fail("expected a key in double quotes"));
        }
        let key = self.string()?;
        self.space();
        if !self.eat(b':') {
            return Err(self.fail("expected : after a key"));
        }
        Ok(key)
    }

    fn scalar(&mut self) -> Result<Value, Failure> {
        match self.peek() {
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => {
                for (word, value) in [
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                    ("null", Value::Null),
                ] {
                    if self.bytes[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(value);
                    }
                }
                Err(self.fail("expected a value"))
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value, Failure> {
        let start = self.at;
        self.eat(b'-');
        if !self.eat(b'0') && self.digits() == 0 {
            return Err(self.fail("expected a digit"));
        }
        if self.eat(b'.') && self.digits() == 0 {
            return Err(self.fail("expected a digit after the decimal point"));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if self.digits() == 0 {
                return Err(self.fail("expected a digit in the exponent"));
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("0");
        Ok(text
            .parse::<serde_json::Number>()
            .map_or(Value::Null, Value::Number))
    }

    fn string(&mut self) -> Result<String, Failure> {
        self.at += 1;
        let mut units: Vec<u16> = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.fail("a string is not closed"));
            };
            match byte {
                b'"' => {
                    self.at += 1;
                    return Ok(String::from_utf16_lossy(&units));
                }
                b'\\' => {
                    self.at += 1;
                    let unit = match self.peek() {
                        Some(b'"') => u16::from(b'"'),
                        Some(b'\\') => u16::from(b'\\'),
                        Some(b'/') => u16::from(b'/'),
                        Some(b'b') => 0x08,
                        Some(b'f') => 0x0c,
                        Some(b'n') => u16::from(b'\n'),
                        Some(b'r') => u16::from(b'\r'),
                        Some(b't') => u16::from(b'\t'),
                        Some(b'u') => {
                            let hex = self
                                .bytes
                                .get(self.at + 1..self.at + 5)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                                .and_then(|h| u16::from_str_radix(h, 16).ok());
                            let Some(unit) = hex else {
                                return Err(self.fail("a \\u escape needs four hex digits"));
                            };
                            self.at += 4;
                            unit
                        }
                        _ => return Err(self.fail("an unknown escape in a string")),
                    };
                    self.at += 1;
                    units.push(unit);
                }
                0x00..=0x1f => return Err(self.fail("a control character in a string")),
                _ => {
                    // One whole UTF-8 character: the text is a `str`, so it is one.
                    let rest = std::str::from_utf8(&self.bytes[self.at..]).unwrap_or_default();
                    let Some(c) = rest.chars().next() else {
                        return Err(self.fail("a string is not closed"));
                    };
                    let mut buffer = [0u16; 2];
                    units.extend_from_slice(c.encode_utf16(&mut buffer));
                    self.at += c.len_utf8();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_json_parse_takes() {
        let value =
            parse(" {\"a\": [1, -0.5e+3, true, false, null, \"\\u00e9\\n\"], \"b\": {}}\r\n")
                .unwrap();
        assert_eq!(value["a"][5], "é\n");
        assert_eq!(parse("\"\\ud800\"").unwrap(), "\u{fffd}");
        assert_eq!(parse("1e400").unwrap(), Value::Null);
        let deep = |n| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&deep(DEEPEST)).is_ok());
        let too_deep = parse(&deep(100_000)).unwrap_err();
        assert!(too_deep.too_deep, "{too_deep:?}");
    }

    #[test]
    fn the_last_copy_of_a_key_wins() {
        assert_eq!(
            parse(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap(),
            serde_json::json!({"a": 3, "b": 2})
        );
    }

    #[test]
    fn what_json_parse_refuses() {
        for text in [
            "",
            "{\"a\": 1,}",
            "[1,]",
            "{'a': 1}",
            "{a: 1}",
            "// c\n{}",
            "\u{feff}{}",
            "{}\u{a0}",
            "{\"a\": 01}",
            "{\"a\": .5}",
            "{\"a\": 1.}",
            "{\"a\": +1}",
            "{\"a\": 0x1}",
            "{\"a\": NaN}",
            "{\"a\": \"\t\"}",
            "{\"a\": \"\\x41\"}",
            "{\"a\": \"\\u12\"}",
            "{\"a\": 1} {}",
            "{\"a\" 1}",
            "[1 2]",
            "{\"a\": tru}",
            "\"open",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
