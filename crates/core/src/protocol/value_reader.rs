//! Reads a typed value out of a `serde_json::Value`, as `serde_json::from_value` does, with about
//! half the code per type: a struct reads from an object only (serde_json also takes an array,
//! which doubled every derived struct's reader though nothing sends one), and keys read as plain
//! strings. Every JSON value in Dusk's wasm is read through here, so no type is read twice.

use serde::de::value::StringDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};
use serde_json::{Error, Value};

/// `serde_json::from_value`, structs from objects only.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, Error> {
    T::deserialize(Reader(value))
}

/// `serde_json::from_str` the same way: text to a `Value` (one reader for all), then [`from_value`].
/// A lone surrogate (page text cut inside a pair) reads as U+FFFD, as a page's text does elsewhere.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    from_value(serde_json::from_str(&well_formed_escapes(text))?)
}

/// JSON text with every `\u` escape of a lone surrogate written as `\ufffd`: `JSON.stringify`
/// escapes them, and serde_json refuses them.
pub(crate) fn well_formed_escapes(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let hex = |at: usize| b.get(at..at + 4).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u16::from_str_radix(h, 16).ok());
    let escape_at = |at: usize| (b.get(at) == Some(&b'\\') && b.get(at + 1) == Some(&b'u')).then(|| hex(at + 2)).flatten();
    let (mut out, mut copied, mut i) = (String::new(), 0, 0);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(i) else {
            i += 2;
            continue;
        };
        let paired = (0xD800..0xDC00).contains(&unit) && escape_at(i + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            i += 12;
        } else if (0xD800..0xE000).contains(&unit) {
            out.push_str(&text[copied..i]);
            out.push_str("\\ufffd");
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    std::borrow::Cow::Owned(out)
}

/// A `Value` as a deserializer whose nested values are read the same way.
pub struct Reader(pub Value);

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (_, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

impl Reader {
    fn invalid<'de, V: Visitor<'de>>(&self, visitor: &V) -> Error {
        de::Error::invalid_type(unexpected(&self.0), visitor)
    }
}

struct Items(std::vec::IntoIter<Value>);

impl<'de> SeqAccess<'de> for Items {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|v| seed.deserialize(Reader(v))).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Fields {
    iter: serde_json::map::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for Fields {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.iter.next() else { return Ok(None) };
        self.value = Some(value);
        seed.deserialize(StringDeserializer::<Error>::new(key)).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(Reader(self.value.take().unwrap_or(Value::Null)))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// `{"tag": value}`: an externally tagged variant.
struct Variant(String, Value);

impl<'de> EnumAccess<'de> for Variant {
    type Error = Error;
    type Variant = Reader;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Reader), Error> {
        Ok((seed.deserialize(StringDeserializer::<Error>::new(self.0))?, Reader(self.1)))
    }
}

impl<'de> VariantAccess<'de> for Reader {
    type Error = Error;
    /// A unit variant's fields, if any, are ignored, as in any variant.
    fn unit_variant(self) -> Result<(), Error> {
        match self.0 {
            Value::Null | Value::Object(_) => Ok(()),
            other => Err(de::Error::invalid_type(unexpected(&other), &"unit variant")),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }
}

/// Scalars go to serde_json's own reader; what holds other values reads them through `Reader`.
macro_rules! scalars {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.0.$method(visitor)
        })*
    };
}

impl<'de> Deserializer<'de> for Reader {
    type Error = Error;

    scalars! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items(items.into_iter())),
            Value::Object(fields) => visitor.visit_map(Fields { iter: fields.into_iter(), value: None }),
            scalar => scalar.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items(items.into_iter())),
            _ => Err(self.invalid(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(fields) => visitor.visit_map(Fields { iter: fields.into_iter(), value: None }),
            _ => Err(self.invalid(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(self, _name: &'static str, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _name: &'static str, _variants: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(tag) => visitor.visit_enum(tag.into_deserializer()),
            Value::Object(fields) if fields.len() == 1 => {
                let Some((tag, value)) = fields.into_iter().next() else { return Err(de::Error::custom("an enum needs one key")) };
                visitor.visit_enum(Variant(tag, value))
            }
            other => Err(de::Error::invalid_type(unexpected(&other), &"a string or a map with a single key")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[test]
    fn lone_surrogates_in_json_text_read_as_replacement_characters_and_pairs_stay() {
        let got: Vec<String> = from_str(r#"["a\ud800b", "\udc00", "\ud83d\ude00", "\\ud800", "x\ud800\u0041"]"#).unwrap();
        assert_eq!(got, ["a\u{fffd}b", "\u{fffd}", "\u{1f600}", "\\ud800", "x\u{fffd}A"]);
        assert!(matches!(well_formed_escapes(r#""plain \u00e9 \\ text""#), std::borrow::Cow::Borrowed(_)));
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Dot,
        Line(u32),
        Box { w: u32, h: Option<u32> },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Doc {
        name: String,
        #[serde(default)]
        tags: Vec<String>,
        shapes: Vec<Shape>,
        size: Option<f64>,
        extra: Value,
        counts: BTreeMap<String, i64>,
    }

    #[test]
    fn reads_what_serde_json_reads_from_objects() {
        let v = json!({"name": "a", "shapes": ["dot", {"line": 3}, {"box": {"w": 2, "h": null}}], "size": 1.5,
            "extra": {"k": [1, "x", null]}, "counts": {"x": -2}, "unknown": [[1]]});
        let got: Doc = from_value(v.clone()).unwrap();
        assert_eq!(got, serde_json::from_value::<Doc>(v).unwrap());
        assert_eq!(got.shapes, vec![Shape::Dot, Shape::Line(3), Shape::Box { w: 2, h: None }]);
        assert_eq!(got.extra, json!({"k": [1, "x", null]}));
    }

    #[test]
    fn errors_name_the_problem() {
        let e = from_value::<Doc>(json!({"shapes": []})).unwrap_err().to_string();
        assert!(e.contains("missing field `name`"), "{e}");
        let e = from_value::<Doc>(json!({"name": 3})).unwrap_err().to_string();
        assert!(e.contains("invalid type"), "{e}");
        let e = from_value::<Shape>(json!("fly")).unwrap_err().to_string();
        assert!(e.contains("unknown variant `fly`"), "{e}");
        let e = from_value::<u8>(json!(300)).unwrap_err().to_string();
        assert!(e.contains("300"), "{e}");
        let e = from_value::<Shape>(json!(42)).unwrap_err().to_string();
        assert!(e.contains("invalid type: integer `42`"), "{e}");
        assert!(from_value::<Doc>(json!(["a", [], null, {}, {}])).is_err(), "a struct reads from an object only");
    }
}
