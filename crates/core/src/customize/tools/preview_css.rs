use super::run_site::{try_css, Tried};
use crate::agent::{Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::session::BrowserSession;
use crate::browser_agent::tools::action::Ctx;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Shows CSS on the page without saving it (in place of the site's saved CSS, after any dark theme) and reports what changed.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct PreviewCssArgs {
    /// The site's whole CSS as it would be saved.
    pub css: String,
}

pub struct PreviewCss;

impl<B: Browser> Tool<BrowserSession<'_, B>> for PreviewCss {
    type Args = PreviewCssArgs;
    fn name(&self) -> &'static str {
        "preview_css"
    }
    fn description(&self) -> &'static str {
        "Shows CSS on the page without saving it and returns a screenshot plus what changed: text elements hidden or shown, boxes moved, the share of text meeting WCAG AA. CSS that hides the page's main text is refused."
    }
    fn describe(&self, a: &PreviewCssArgs) -> String {
        format!("Previewing {} bytes of CSS", a.css.len())
    }
    async fn execute(&self, a: PreviewCssArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let s = ctx.host;
        let Tried { clean, applied, quality } = try_css(ctx, &a.css).await?;
        let summary = format!(
            "Previewed {} rule(s): {} text element(s) hidden, {} shown, {} box(es) moved",
            applied.rules, quality.hidden_text, quality.shown_text, quality.moved
        );
        let data = json!({
            "rules": applied.rules,
            "rejected": applied.rejected,
            "removed_by_sanitiser": clean.removed,
            "hidden_text": quality.hidden_text,
            "hidden_examples": quality.hidden,
            "shown_text": quality.shown_text,
            "shown_examples": quality.shown,
            "moved": quality.moved,
            "moved_examples": quality.moved_examples,
            "aa_share": (quality.aa_share * 1000.0).round() / 1000.0,
            "saved": false,
        });
        let out = ToolOutput::new(data, summary);
        if !ctx.vision {
            return Ok(out);
        }
        Ok(match s.labelled_screenshot(Vec::new()).await {
            Ok(image) => out.with_image(image),
            Err(_) => out,
        })
    }
}
