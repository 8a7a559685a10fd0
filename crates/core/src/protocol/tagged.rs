//! The wire form `{"type": "click", …fields}` for an enum whose derive is externally tagged
//! (`{"click": {…fields}}`). serde's own internally tagged derive buffers every message into a
//! generic tree and then tries each variant; for ContentRequest that came to a third of the page
//! layer's code once compiled to JS. Going through a `Value` and the external form is far smaller.

use serde_json::{Map, Value};

/// `{"click": {…}}` or `"ping"` → `{"type": "click", …}` (or the tag under another `key`: `"role"`, `"kind"`, …).
pub fn to_internal_as(key: &str, external: Value) -> Value {
    match external {
        Value::String(tag) => Value::Object(one_entry(key.to_string(), Value::String(tag))),
        Value::Object(map) if map.len() == 1 => {
            let (tag, fields) = map.into_iter().next().expect("one entry");
            let mut out = match fields {
                Value::Object(fields) => fields,
                _ => Map::new(),
            };
            out.insert(key.into(), Value::String(tag));
            Value::Object(out)
        }
        other => other,
    }
}

/// A message's wire `type` ("" if it has none), to name a reply that came instead of the one
/// asked for: its whole Debug form was thousands of characters for a listing, and ~10 KB of code.
pub fn wire_type<T: serde::Serialize>(message: &T) -> String {
    serde_json::to_value(message).ok().and_then(|v| Some(v.get("type")?.as_str()?.to_string())).unwrap_or_default()
}

/// A map of one entry, inserted: `Map::from_iter` would bring in a sort for it.
fn one_entry(key: String, value: Value) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(key, value);
    map
}

/// `{"type": "click", …}` → `{"click": {…}}`; a message without a string `type` (or `key`) is an error.
pub fn to_external_as(key: &str, internal: Value) -> Result<Value, String> {
    let Value::Object(mut map) = internal else { return Err(format!("a message must be a JSON object with a \"{key}\"")) };
    match map.remove(key) {
        Some(Value::String(tag)) => Ok(Value::Object(one_entry(tag, Value::Object(map)))),
        Some(_) => Err(format!("the message's \"{key}\" must be a string")),
        None => Err(format!("missing field `{key}`")),
    }
}

/// serde_json's compact external text, `{"click":{…}}` or `"ping"`, → `{"type":"click",…}`: the
/// wire form written straight from the derive, with no `Value` in between.
pub fn internal_text(key: &str, external: &str) -> String {
    let (tag, fields) = match external.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        Some(tag) => (tag, ""),
        None => {
            let inner = external.strip_prefix("{\"").and_then(|s| s.strip_suffix("}}"));
            match inner.and_then(|s| s.split_once("\":{")) {
                Some(parts) => parts,
                None => return external.to_string(),
            }
        }
    };
    let mut out = String::with_capacity(external.len() + key.len() + 4);
    for part in ["{\"", key, "\":\"", tag, "\""] {
        out.push_str(part);
    }
    if !fields.is_empty() {
        out.push(',');
        out.push_str(fields);
    }
    out.push('}');
    out
}

/// A type-tagged enum written as its wire text without going through a `Value`.
pub trait TaggedText {
    fn tagged_text(&self) -> serde_json::Result<String>;
}

/// `{"ping": {…}}` → `"ping"`, the external form of a unit variant.
pub fn as_unit(external: &Value) -> Option<Value> {
    external.as_object()?.keys().next().map(|tag| Value::String(tag.clone()))
}

/// Implements Serialize and Deserialize in the `type`-tagged wire form for an enum declared
/// with `#[derive(Serialize, Deserialize)] #[serde(remote = "Self")]`.
macro_rules! type_tagged {
    ($ty:ty) => {
        $crate::protocol::tagged::type_tagged!($ty, "type");
    };
    ($ty:ty, $key:literal) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let external = <$ty>::serialize(self, serde_json::value::Serializer).map_err(serde::ser::Error::custom)?;
                serde::Serialize::serialize(&$crate::protocol::tagged::to_internal_as($key, external), s)
            }
        }
        impl $crate::protocol::tagged::TaggedText for $ty {
            fn tagged_text(&self) -> serde_json::Result<String> {
                let mut out = Vec::new();
                <$ty>::serialize(self, &mut serde_json::Serializer::new(&mut out))?;
                let external = String::from_utf8(out).map_err(serde::ser::Error::custom)?;
                Ok($crate::protocol::tagged::internal_text($key, &external))
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let internal = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                let external = $crate::protocol::tagged::to_external_as($key, internal).map_err(serde::de::Error::custom)?;
                let unit = $crate::protocol::tagged::as_unit(&external);
                // The struct form first; failing that, a unit variant (whose extra fields are ignored, as in any variant).
                <$ty>::deserialize($crate::protocol::Reader(external))
                    .or_else(|e| unit.and_then(|u| <$ty>::deserialize($crate::protocol::Reader(u)).ok()).ok_or(e))
                    .map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use type_tagged;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_reply_that_came_instead_is_named_by_its_wire_type() {
        use crate::protocol::dark::DarkContentResponse;
        use crate::protocol::ContentResponse;
        let other = ContentResponse::ElementCount { selector: "a".into(), count: 2 };
        assert_eq!(other.unexpected(), "unexpected reply from the page: element_count");
        assert_eq!(ContentResponse::Error { message: "gone".into() }.unexpected(), "gone");
        let dark = DarkContentResponse::Error { message: "no".into() };
        assert_eq!(dark.unexpected(), "no");
    }

    #[test]
    fn both_forms_round_trip() {
        let internal = json!({"type": "click", "index": 3});
        let external = to_external_as("type", internal.clone()).unwrap();
        assert_eq!(external, json!({"click": {"index": 3}}));
        assert_eq!(to_internal_as("type", external), internal);
        assert_eq!(to_internal_as("type", json!("ping")), json!({"type": "ping"}));
        assert_eq!(to_external_as("type", json!({"type": "ping"})).unwrap(), json!({"ping": {}}));
        assert!(to_external_as("type", json!({"index": 3})).unwrap_err().contains("type"));
        assert!(to_external_as("type", json!([1])).is_err());
    }

    #[test]
    fn wire_text_written_straight_is_the_same_as_through_a_value() {
        use crate::protocol::{ContentResponse, WorkerRequest};
        assert_eq!(internal_text("type", r#"{"click":{"index":3,"s":"a\"}"}}"#), r#"{"type":"click","index":3,"s":"a\"}"}"#);
        assert_eq!(internal_text("type", r#""ping""#), r#"{"type":"ping"}"#);
        assert_eq!(internal_text("kind", r#"{"ping":{}}"#), r#"{"kind":"ping"}"#);
        let replies = [
            ContentResponse::Error { message: "a \"quote\" and }} braces".into() },
            serde_json::from_value(json!({"type": "layer_missing", "layer": "page"})).unwrap(),
        ];
        for reply in replies {
            let text = reply.tagged_text().unwrap();
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), serde_json::to_value(&reply).unwrap(), "{text}");
        }
        assert_eq!(WorkerRequest::GetSettings.tagged_text().unwrap(), r#"{"type":"get_settings"}"#);
    }

    #[test]
    fn messages_without_fields_parse_as_unit_or_defaulted_variants() {
        use crate::protocol::ContentRequest;
        let parse = |v: Value| crate::protocol::from_value::<ContentRequest>(v);
        assert_eq!(parse(json!({"type": "ping"})).unwrap(), ContentRequest::Ping);
        assert_eq!(parse(json!({"type": "ping", "junk": [[1]]})).unwrap(), ContentRequest::Ping, "extra fields are ignored");
        assert!(matches!(parse(json!({"type": "page_summary"})).unwrap(), ContentRequest::PageSummary { text_limit: 2000 }));
        assert!(matches!(parse(json!({"type": "get_elements", "limit": 5})).unwrap(), ContentRequest::GetElements { limit: 5, .. }));
        let unknown = parse(json!({"type": "fly"})).unwrap_err().to_string();
        assert!(unknown.contains("unknown variant `fly`"), "{unknown}");
        let missing = parse(json!({"type": "count_elements"})).unwrap_err().to_string();
        assert!(missing.contains("selector"), "{missing}");
        assert_eq!(serde_json::to_value(ContentRequest::Ping).unwrap(), json!({"type": "ping"}));
    }
}
