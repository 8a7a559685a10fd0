use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::{Target, TypeAt};
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Types text into the field with this index. By default it replaces what the field holds; `clear: false` types at the caret (where a click on the field put it; else at the end). To edit a field's text in place, give `after_line` (the text goes on a new line after that line) or `replace` (the text takes the place of that piece). Dates, times, colours and ranges are set whole.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TypeArgs {
    pub index: u32,
    pub text: String,
    /// Replace what the field holds (true, the default) or type at the caret (false).
    #[serde(default = "yes")]
    pub clear: bool,
    /// Put the text on a new line after the line that reads this (a line of the field's value).
    #[serde(default)]
    pub after_line: Option<String>,
    /// Put the text in place of this piece of the field's value (its first occurrence).
    #[serde(default)]
    pub replace: Option<String>,
}

fn yes() -> bool {
    true
}

impl TypeArgs {
    /// Where the text goes: after a line, over a piece, or (None) over or after the whole value.
    pub fn at(&self) -> Result<Option<TypeAt>, String> {
        match (&self.after_line, &self.replace) {
            (Some(_), Some(_)) => Err("give after_line or replace, not both".into()),
            (Some(l), None) => Ok(Some(TypeAt::AfterLine(l.clone()))),
            (None, Some(r)) => Ok(Some(TypeAt::Replace(r.clone()))),
            (None, None) => Ok(None),
        }
    }
}

pub struct TypeText;

impl<B: Browser> Tool<BrowserSession<'_, B>> for TypeText {
    type Args = TypeArgs;
    fn name(&self) -> &'static str {
        "type"
    }
    fn describe(&self, a: &TypeArgs) -> String {
        format!("Typing into element {}", a.index)
    }
    async fn gate(&self, a: &TypeArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Type { text: a.text.clone() }, Some(a.index)).await
    }
    async fn execute(&self, a: TypeArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let at = a.at()?;
        let request = ContentRequest::TypeText { target: Target::index(a.index), text: a.text, clear: a.clear && at.is_none(), at };
        act(ctx, Some(a.index), "Typed into", request).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_names_where_its_text_goes() {
        let args = |v: serde_json::Value| serde_json::from_value::<TypeArgs>(v).unwrap();
        let a = args(serde_json::json!({ "index": 3, "text": "See also", "after_line": "Second paragraph." }));
        assert_eq!(a.at().unwrap(), Some(TypeAt::AfterLine("Second paragraph.".into())));
        let a = args(serde_json::json!({ "index": 3, "text": "the", "replace": "teh" }));
        assert_eq!(a.at().unwrap(), Some(TypeAt::Replace("teh".into())));
        let a = args(serde_json::json!({ "index": 3, "text": "x" }));
        assert_eq!((a.at().unwrap(), a.clear), (None, true), "replaces the whole value by default");
        let a = args(serde_json::json!({ "index": 3, "text": "x", "after_line": "a", "replace": "b" }));
        assert!(a.at().is_err());
        let schema = serde_json::to_value(schemars::schema_for!(TypeArgs)).unwrap();
        let props = &schema["properties"];
        assert!(props["after_line"].is_object() && props["replace"].is_object(), "{schema}");
    }
}
