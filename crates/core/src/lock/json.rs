//! JSON as Node reads and writes it, for files the skills CLI rewrites: objects keep the order
//! `JSON.parse` gives their keys (array-index keys first, ascending, then the others in the
//! order written; a repeated key keeps its first place and its last value), and [`stringify`]
//! writes what `JSON.stringify(value, null, 2)` writes. `serde_json`'s own map sorts its keys,
//! which would reorder the fields of entries skilldeck only passes through.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// One JSON value, objects in Node's key order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Object),
}

/// A JSON object's fields in the order Node enumerates them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object(Vec<(String, Json)>);

impl Object {
    /// Set `key`, in place when it is there already, else after the others: what assigning a
    /// property of a JavaScript object does.
    pub fn insert(&mut self, key: impl Into<String>, value: Json) {
        let key = key.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => *old = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The fields in the order Node enumerates them: array-index keys first, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json)> {
        let mut indexed: Vec<(u32, &(String, Json))> = self
            .0
            .iter()
            .filter_map(|pair| array_index(&pair.0).map(|i| (i, pair)))
            .collect();
        indexed.sort_by_key(|(i, _)| *i);
        indexed
            .into_iter()
            .map(|(_, pair)| pair)
            .chain(self.0.iter().filter(|pair| array_index(&pair.0).is_none()))
            .map(|(k, v)| (k.as_str(), v))
    }
}

/// The key as an array index (a canonical integer below 2³² − 1), which JavaScript objects
/// enumerate before every other key.
fn array_index(key: &str) -> Option<u32> {
    if key.len() > 1 && key.starts_with('0') {
        return None;
    }
    key.parse::<u32>().ok().filter(|i| *i != u32::MAX)
}

/// `JSON.stringify(value, null, 2)`.
pub fn stringify(value: &Json) -> String {
    let mut out = String::new();
    write(value, 0, &mut out);
    out
}

fn write(value: &Json, depth: usize, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(&js_number(n)),
        Json::String(s) => out.push_str(&quote(s)),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                indent(depth + 1, out);
                write(item, depth + 1, out);
            }
            out.push('\n');
            indent(depth, out);
            out.push(']');
        }
        Json::Object(object) if object.0.is_empty() => out.push_str("{}"),
        Json::Object(object) => {
            out.push('{');
            for (i, (key, item)) in object.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                indent(depth + 1, out);
                out.push_str(&quote(key));
                out.push_str(": ");
                write(item, depth + 1, out);
            }
            out.push('\n');
            indent(depth, out);
            out.push('}');
        }
    }
}

fn indent(depth: usize, out: &mut String) {
    out.extend(std::iter::repeat_n("  ", depth));
}

/// A string as `JSON.stringify` quotes it: `"` and `\` escaped, the controls below U+0020 as
/// `\b \t \n \f \r` or `\u00xx` — which is what `serde_json` writes too.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// A number as JavaScript prints it: integers without a fraction, exponents past 10²¹ and
/// below 10⁻⁶ as `1e+21` and `1e-7`, `-0` as `0`.
fn js_number(n: &serde_json::Number) -> String {
    if n.is_u64() || n.is_i64() {
        return n.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 {
        return "0".to_owned();
    }
    if f.abs() >= 1e21 || f.abs() < 1e-6 {
        let e = format!("{f:e}");
        return match e.split_once('e') {
            Some((m, x)) if !x.starts_with('-') => format!("{m}e+{x}"),
            _ => e,
        };
    }
    format!("{f}")
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = Object::default();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            object.insert(key, value);
        }
        Ok(Json::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(text: &str) -> String {
        stringify(&serde_json::from_str::<Json>(text).unwrap())
    }

    #[test]
    fn written_as_node_writes_it() {
        // Each expected string is what Node 20 prints for JSON.stringify(JSON.parse(input), null, 2).
        assert_eq!(round(r#"{"b":1,"a":[]}"#), "{\n  \"b\": 1,\n  \"a\": []\n}");
        assert_eq!(
            round(r#"{"x":"1","10":0,"2":{},"a":[1,{"k":null}]}"#),
            "{\n  \"2\": {},\n  \"10\": 0,\n  \"x\": \"1\",\n  \"a\": [\n    1,\n    {\n      \"k\": null\n    }\n  ]\n}"
        );
        assert_eq!(
            round(r#"{"a":1,"b":2,"a":3}"#),
            "{\n  \"a\": 3,\n  \"b\": 2\n}"
        );
        assert_eq!(round(r#"{"01":1,"1":2}"#), "{\n  \"1\": 2,\n  \"01\": 1\n}");
        assert_eq!(round(r#"["\u0001\t\"é"]"#), "[\n  \"\\u0001\\t\\\"é\"\n]");
        assert_eq!(
            round("[1.0, 2.5, 1e21, 1e-7, -0.0, 0.000001]"),
            "[\n  1,\n  2.5,\n  1e+21,\n  1e-7,\n  0,\n  0.000001\n]"
        );
    }
}
