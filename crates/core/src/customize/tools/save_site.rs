use super::run_site::{record, save_gate, try_css};
use crate::agent::{ConfirmLevel, Gate, Host, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::SitePolicy;
use crate::browser_agent::session::BrowserSession;
use crate::browser_agent::tools::action::Ctx;
use crate::customize::diff::unified;
use crate::customize::ENABLE_USER_SCRIPTS;
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Saves the site's whole CSS, applied on every visit; the user sees the diff and must click Save.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SaveSiteCssArgs {
    /// The site's whole CSS (it replaces what is saved).
    pub css: String,
    /// A few words on the change, for the site's history.
    #[serde(default)]
    pub note: String,
}

/// Saves the site's whole JS, run on every visit in an isolated user-script world; the user sees it in full and must confirm.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SaveSiteJsArgs {
    /// The site's whole JS (it replaces what is saved).
    pub js: String,
    #[serde(default)]
    pub note: String,
}

pub struct SaveSiteCss;
pub struct SaveSiteJs;

/// "+3 −1 lines" from a unified diff.
fn counts(diff: &str) -> String {
    let body = diff.lines().filter(|l| !l.starts_with("+++") && !l.starts_with("---"));
    let (added, removed) = body.fold((0, 0), |(a, r), l| (a + usize::from(l.starts_with('+')), r + usize::from(l.starts_with('-'))));
    format!("+{added} −{removed} lines")
}

impl<B: Browser> Tool<BrowserSession<'_, B>> for SaveSiteCss {
    type Args = SaveSiteCssArgs;
    fn name(&self) -> &'static str {
        "save_site_css"
    }
    fn describe(&self, _a: &SaveSiteCssArgs) -> String {
        "Save the site's CSS".into()
    }
    /// The CSS is measured on the page as a preview would be: what the guard refuses is never
    /// put to the user (no card), never stored, and the model is told why.
    async fn gate(&self, a: &SaveSiteCssArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        if ctx.host.policy() == SitePolicy::Block {
            return save_gate(ctx, String::new());
        }
        let before = record(ctx).await.map(|r| r.css()).unwrap_or_default();
        match try_css(ctx, &a.css).await {
            Ok(tried) => save_gate(ctx, unified("CSS", &before, tried.clean.css.trim())),
            Err(reason) => Gate::new(ConfirmLevel::Block, vec![format!("the CSS was not saved: {reason}")]),
        }
    }
    async fn execute(&self, a: SaveSiteCssArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let mut r = record(ctx).await?;
        let before = r.css();
        let removed = r.save(&a.css, &r.js(), &a.note, ctx.host.now_ms())?;
        ctx.host.browser.save_site_custom(&r).await?;
        // The saved sheet shows the same CSS now; the preview goes.
        let _ = ctx.host.rpc(ContentRequest::PreviewSiteCss { css: String::new() }).await;
        let change = counts(&unified("CSS", &before, &r.css()));
        Ok(ToolOutput::new(
            json!({ "saved": true, "host": r.host, "removed_by_sanitiser": removed, "versions": r.versions.len() }),
            format!("Saved the site's CSS ({change})"),
        ))
    }
}

impl<B: Browser> Tool<BrowserSession<'_, B>> for SaveSiteJs {
    type Args = SaveSiteJsArgs;
    fn name(&self) -> &'static str {
        "save_site_js"
    }
    fn describe(&self, _a: &SaveSiteJsArgs) -> String {
        "Save the site's JS".into()
    }
    async fn gate(&self, a: &SaveSiteJsArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        let before = record(ctx).await.map(|r| r.js()).unwrap_or_default();
        let detail = format!("The script, in full (it runs on every visit, without Dusk's privileges):\n{}\n\n{}", a.js.trim(), unified("JS", &before, &a.js));
        let mut gate = save_gate(ctx, detail);
        gate.reasons.push("this runs script on the site".into());
        gate
    }
    async fn execute(&self, a: SaveSiteJsArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let mut r = record(ctx).await?;
        let before = r.js();
        r.save(&r.css(), &a.js, &a.note, ctx.host.now_ms())?;
        ctx.host.browser.save_site_custom(&r).await?;
        let change = counts(&unified("JS", &before, &r.js()));
        let runs = ctx.host.browser.user_scripts_enabled().await;
        let summary = if runs {
            format!("Saved the site's JS ({change}); it runs on the site's pages from the next visit")
        } else {
            format!("Saved the site's JS ({change}); {ENABLE_USER_SCRIPTS}")
        };
        Ok(ToolOutput::new(json!({ "saved": true, "host": r.host, "user_scripts_allowed": runs, "versions": r.versions.len() }), summary))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_lines() {
        assert_eq!(super::counts("--- a\n+++ b\n@@\n-x\n+y\n+z\n c"), "+2 −1 lines");
    }
}
