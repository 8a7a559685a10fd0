//! Tool definitions derived from the argument types, so the schema the model sees and the parser
//! that reads its arguments can't drift apart.

use super::tool_call::ToolCall;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A tool the model may call: name, description and JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

impl ToolSpec {
    /// Derives the parameters from `T`; an empty description falls back to `T`'s doc comment.
    pub fn of<T: JsonSchema>(name: &str, description: &str) -> ToolSpec {
        let generator = SchemaSettings::draft07()
            .with(|s| {
                s.inline_subschemas = true;
                s.meta_schema = None;
            })
            .into_generator();
        let mut parameters = generator.into_root_schema_for::<T>().to_value();
        let doc = match parameters.as_object_mut() {
            Some(root) => {
                root.remove("title");
                root.remove("$schema");
                root.remove("description").and_then(|d| d.as_str().map(str::to_string))
            }
            None => None,
        };
        compact(&mut parameters);
        let parameters = ensure_object_schema(parameters);
        let description = if description.is_empty() { doc.unwrap_or_default() } else { description.to_string() };
        ToolSpec { name: name.to_string(), description, parameters }
    }

    /// A tool whose schema is written by hand.
    pub fn new(name: &str, description: &str, parameters: Value) -> ToolSpec {
        ToolSpec { name: name.to_string(), description: description.to_string(), parameters: ensure_object_schema(parameters) }
    }
}

/// Providers want an object schema at the root, even for a tool without arguments.
fn ensure_object_schema(v: Value) -> Value {
    match v {
        Value::Object(mut m) if m.get("type").and_then(Value::as_str) == Some("object") => {
            m.entry("properties").or_insert_with(|| Value::Object(Map::new()));
            Value::Object(m)
        }
        Value::Object(m) if m.contains_key("properties") => {
            let mut m = m;
            m.insert("type".into(), "object".into());
            Value::Object(m)
        }
        _ => serde_json::json!({"type": "object", "properties": {}}),
    }
}

/// Drops keys that cost tokens without helping the model (Rust-specific integer formats).
fn compact(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let rust_format = m.get("format").and_then(Value::as_str).is_some_and(|f| {
                matches!(
                    f,
                    "uint"
                        | "uint8"
                        | "uint16"
                        | "uint32"
                        | "uint64"
                        | "uint128"
                        | "int"
                        | "int8"
                        | "int16"
                        | "int32"
                        | "int64"
                        | "int128"
                        | "float"
                        | "double"
                )
            });
            if rust_format {
                m.remove("format");
            }
            for (k, child) in m.iter_mut() {
                if k != "enum" && k != "const" && k != "default" && k != "examples" {
                    compact(child);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(compact),
        _ => {}
    }
}

/// Keywords Gemini's OpenAPI-subset schema accepts; anything else is rejected by some versions.
pub const GEMINI_KEYS: &[&str] = &[
    "type",
    "format",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "anyOf",
    "items",
    "minimum",
    "maximum",
    "title",
    "propertyOrdering",
];

/// Rewrites a JSON Schema into the subset Gemini accepts: no `$schema`, no
/// `additionalProperties`, nullable instead of type arrays, `anyOf` instead of `oneOf`.
pub fn gemini_schema(schema: &Value) -> Value {
    match schema {
        Value::Bool(_) => serde_json::json!({}),
        Value::Object(m) => gemini_object(m),
        other => other.clone(),
    }
}

fn gemini_object(m: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    let mut nullable = m.get("nullable").and_then(Value::as_bool).unwrap_or(false);
    match m.get("type") {
        Some(Value::Array(types)) => {
            let non_null: Vec<&Value> = types.iter().filter(|t| t.as_str() != Some("null")).collect();
            nullable |= non_null.len() < types.len();
            if let [only] = non_null.as_slice() {
                out.insert("type".into(), (*only).clone());
            } else if !non_null.is_empty() {
                let any: Vec<Value> = non_null.iter().map(|t| serde_json::json!({"type": t})).collect();
                out.insert("anyOf".into(), Value::Array(any));
            }
        }
        Some(t) => {
            out.insert("type".into(), t.clone());
        }
        None => {}
    }
    if let Some(c) = m.get("const") {
        if let Some(s) = c.as_str() {
            out.insert("type".into(), "string".into());
            out.insert("enum".into(), serde_json::json!([s]));
        }
    }
    let alternatives = m.get("anyOf").or_else(|| m.get("oneOf")).and_then(Value::as_array);
    if let Some(alts) = alternatives {
        let kept: Vec<Value> = alts.iter().filter(|a| a.get("type").and_then(Value::as_str) != Some("null")).map(gemini_schema).collect();
        nullable |= kept.len() < alts.len();
        match kept.len() {
            0 => {}
            1 => {
                if let Some(Value::Object(inner)) = kept.into_iter().next() {
                    for (k, v) in inner {
                        out.entry(k).or_insert(v);
                    }
                }
            }
            _ => {
                out.insert("anyOf".into(), Value::Array(kept));
            }
        }
    }
    for (k, v) in m {
        if out.contains_key(k) || !GEMINI_KEYS.contains(&k.as_str()) || k == "type" || k == "anyOf" || k == "nullable" {
            continue;
        }
        let v = match k.as_str() {
            "properties" => match v.as_object() {
                Some(props) => {
                    // Inserted one by one: a collect into the map sorts first, with a sort of its own.
                    let mut schemas = Map::new();
                    for (name, s) in props {
                        schemas.insert(name.clone(), gemini_schema(s));
                    }
                    Value::Object(schemas)
                }
                None => continue,
            },
            "items" => gemini_schema(v),
            "enum" => match v.as_array() {
                Some(vals) => {
                    let strings: Vec<Value> = vals.iter().filter(|x| !x.is_null()).cloned().collect();
                    nullable |= strings.len() < vals.len();
                    if strings.is_empty() || !strings.iter().all(Value::is_string) {
                        continue;
                    }
                    Value::Array(strings)
                }
                None => continue,
            },
            "format" => match v.as_str() {
                Some("date-time") | Some("enum") => v.clone(),
                _ => continue,
            },
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    if nullable {
        out.insert("nullable".into(), Value::Bool(true));
    }
    Value::Object(out)
}

/// Arguments the model sent that don't fit the tool; the text is meant for the model to read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("The arguments for tool `{tool}` were invalid: {reason}. Call `{tool}` again with arguments that match its parameter schema.")]
pub struct ToolArgsError {
    pub tool: String,
    pub reason: String,
}

/// Deserialises a tool call's arguments into the type its schema was derived from.
pub fn parse_args<T: DeserializeOwned>(call: &ToolCall) -> Result<T, ToolArgsError> {
    let err = |reason: String| ToolArgsError { tool: call.name.clone(), reason };
    let value = match &call.arguments {
        Value::Null => Value::Object(Map::new()),
        Value::String(s) if s.trim().is_empty() => Value::Object(Map::new()),
        // Some models double-encode: the arguments are a JSON string holding the JSON object.
        Value::String(s) => serde_json::from_str::<Value>(s).map_err(|e| err(format!("they are not valid JSON ({e})")))?,
        v => v.clone(),
    };
    let value = match value {
        Value::String(s) => serde_json::from_str::<Value>(&s).unwrap_or(Value::String(s)),
        v => v,
    };
    serde_path_to_error::deserialize(crate::protocol::Reader(value)).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        err(if field == "." || field.is_empty() { inner.to_string() } else { format!("field `{field}`: {inner}") })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Clicks an element.
    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    struct ClickArgs {
        /// The element's index from the page context.
        index: u32,
        #[serde(default)]
        button: Option<Button>,
        target: Option<Target>,
    }

    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Button {
        Left,
        Right,
    }

    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Target {
        x: f64,
        y: f64,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct NoArgs {}

    #[test]
    fn schema_is_inline_and_compact() {
        let t = ToolSpec::of::<ClickArgs>("click", "");
        assert_eq!(t.description, "Clicks an element.");
        let p = &t.parameters;
        let text = p.to_string();
        assert!(!text.contains("$schema") && !text.contains("$ref") && !text.contains("definitions"), "{text}");
        assert!(!text.contains("uint32"), "{text}");
        assert_eq!(p["type"], "object");
        assert_eq!(p["required"], json!(["index"]));
        assert_eq!(p["properties"]["index"]["description"], "The element's index from the page context.");
        assert!(p.get("title").is_none() && p.get("description").is_none());
    }

    #[test]
    fn empty_struct_still_gets_an_object_schema() {
        let t = ToolSpec::of::<NoArgs>("noop", "Does nothing");
        assert_eq!(t.parameters["type"], "object");
        assert!(t.parameters["properties"].is_object());
    }

    #[test]
    fn gemini_schema_drops_rejected_keywords() {
        let t = ToolSpec::of::<ClickArgs>("click", "x");
        let g = gemini_schema(&t.parameters);
        let text = g.to_string();
        assert!(!text.contains("additionalProperties") && !text.contains("oneOf") && !text.contains("const"), "{text}");
        assert!(!text.contains("\"null\""), "{text}");
        assert_eq!(g["properties"]["target"]["nullable"], true);
        assert_eq!(g["properties"]["target"]["type"], "object");
        assert_eq!(g["properties"]["button"]["enum"], json!(["left", "right"]));
        let odd = json!({"type": ["integer", "null"], "$schema": "x", "oneOf": [{"const": "a"}, {"const": "b"}], "default": 1});
        let g = gemini_schema(&odd);
        assert_eq!(g["type"], "integer");
        assert_eq!(g["nullable"], true);
        assert_eq!(g["anyOf"][1]["enum"], json!(["b"]));
        assert!(g.get("default").is_none() && g.get("$schema").is_none());
    }

    #[test]
    fn parse_args_accepts_objects_strings_and_double_encoding() {
        let want = ClickArgs { index: 3, button: Some(Button::Right), target: None };
        for args in
            [json!({"index": 3, "button": "right"}), json!("{\"index\":3,\"button\":\"right\"}"), json!("\"{\\\"index\\\":3,\\\"button\\\":\\\"right\\\"}\"")]
        {
            let call = ToolCall::new("1", "click", args);
            assert_eq!(parse_args::<ClickArgs>(&call).unwrap(), want);
        }
        let call = ToolCall::new("1", "noop", Value::Null);
        assert!(parse_args::<NoArgs>(&call).is_ok());
    }

    #[test]
    fn parse_args_errors_are_readable_by_the_model() {
        let call = ToolCall::new("1", "click", json!({"button": "left"}));
        let e = parse_args::<ClickArgs>(&call).unwrap_err().to_string();
        assert!(e.contains("`click`") && e.contains("missing field `index`"), "{e}");
        let call = ToolCall::new("1", "click", json!({"index": "three"}));
        let e = parse_args::<ClickArgs>(&call).unwrap_err().to_string();
        assert!(e.contains("invalid type"), "{e}");
        let call = ToolCall::new("1", "click", json!("{index: 3"));
        let e = parse_args::<ClickArgs>(&call).unwrap_err().to_string();
        assert!(e.contains("not valid JSON"), "{e}");
    }
}
