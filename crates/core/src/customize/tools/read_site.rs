use super::run_site::record;
use crate::agent::{Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::session::BrowserSession;
use crate::browser_agent::tools::action::Ctx;
use crate::browser_agent::tools::action::NoArgs;
use serde_json::json;

/// Reads the CSS saved for this site (empty when none), and whether the customisation is on.
pub struct ReadSiteCss;

impl<B: Browser> Tool<BrowserSession<'_, B>> for ReadSiteCss {
    type Args = NoArgs;
    fn name(&self) -> &'static str {
        "read_site_css"
    }
    fn description(&self) -> &'static str {
        "Reads the CSS saved for this site (empty when none) and whether the site's customisation is on."
    }
    fn describe(&self, _a: &NoArgs) -> String {
        "Reading the site's saved CSS".into()
    }
    async fn execute(&self, _a: NoArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let r = record(ctx).await?;
        let css = r.css();
        let summary = if css.is_empty() { "No CSS saved for this site yet".to_string() } else { format!("Read the site's CSS ({} bytes)", css.len()) };
        Ok(ToolOutput::new(json!({ "host": r.host, "css": css, "enabled": r.enabled, "versions": r.versions.len() }), summary))
    }
}

/// Reads the JS saved for this site (empty when none), and whether user scripts can run it.
pub struct ReadSiteJs;

impl<B: Browser> Tool<BrowserSession<'_, B>> for ReadSiteJs {
    type Args = NoArgs;
    fn name(&self) -> &'static str {
        "read_site_js"
    }
    fn description(&self) -> &'static str {
        "Reads the JS saved for this site (empty when none) and whether user scripts are allowed, so it runs."
    }
    fn describe(&self, _a: &NoArgs) -> String {
        "Reading the site's saved JS".into()
    }
    async fn execute(&self, _a: NoArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let r = record(ctx).await?;
        let js = r.js();
        let summary = if js.is_empty() { "No JS saved for this site yet".to_string() } else { format!("Read the site's JS ({} bytes)", js.len()) };
        let runs = ctx.host.browser.user_scripts_enabled().await;
        Ok(ToolOutput::new(json!({ "host": r.host, "js": js, "enabled": r.enabled, "user_scripts_allowed": runs }), summary))
    }
}
