use super::action::{output, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::{Browser, Navigation};
use crate::browser_agent::safety::site::same_site;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use schemars::JsonSchema;
use serde::Deserialize;

/// Opens a URL in the current tab, or in a new tab that the run then works in.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NavigateArgs {
    pub url: String,
    #[serde(default)]
    pub new_tab: bool,
}

pub struct Navigate;

/// Only web pages: `javascript:` and the like would be script by another name.
pub fn checked_url(url: &str) -> Result<String, String> {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Ok(url.to_string());
    }
    if lower.contains("://") || lower.starts_with("javascript:") || lower.starts_with("data:") || lower.starts_with("file:") {
        return Err(format!("only http and https pages can be opened, not {url}"));
    }
    Ok(format!("https://{url}"))
}

/// The same document with another fragment: no new page will load.
pub fn same_document(from: &str, to: &str) -> bool {
    let base = |u: &str| u.split('#').next().unwrap_or(u).to_string();
    to.contains('#') && base(from) == base(to)
}

impl<B: Browser> Tool<BrowserSession<'_, B>> for Navigate {
    type Args = NavigateArgs;
    fn name(&self) -> &'static str {
        "navigate"
    }
    fn describe(&self, a: &NavigateArgs) -> String {
        format!("Opening {}", a.url)
    }
    async fn gate(&self, a: &NavigateArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        let to_url = checked_url(&a.url).unwrap_or_else(|_| a.url.clone());
        ctx.host.gate(Action::Navigate { to_url }, None).await
    }
    async fn execute(&self, a: NavigateArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let url = checked_url(&a.url)?;
        let s = ctx.host;
        let from = s.run.borrow().url.clone();
        if a.new_tab {
            // The tab joins the run's boundary before its first request.
            let tab = s.browser.open_tab("about:blank").await?;
            s.join_tab(tab).await?;
            s.browser.navigate(tab, &Navigation::Url(url.clone())).await?;
            s.switch_to(tab).await?;
        } else {
            let before = s.current_doc().await.map(|d| d.doc);
            s.through_dialogs(s.tab(), s.browser.navigate(s.tab(), &Navigation::Url(url.clone()))).await?;
            let previous = if same_document(&from, &url) { None } else { before };
            let doc = s.wait_ready(s.tab(), previous.as_deref()).await?;
            s.run.borrow_mut().doc = doc.doc;
        }
        let (changes, image) = s.after_action(format!("opened {url}"), &[]).await;
        let place = if a.new_tab { " in a new tab" } else { "" };
        // The gate let another site through (named, approved or allowed): the step says so.
        let notice = if from.is_empty() || same_site(&from, &url) { String::new() } else { " (another site)".to_string() };
        Ok(output(changes, image, format!("Opened {url}{place}{notice}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_urls_and_fragments_stay_put() {
        assert_eq!(checked_url("example.com/a").unwrap(), "https://example.com/a");
        assert!(checked_url("javascript:alert(1)").is_err() && checked_url("chrome://settings").is_err());
        assert!(same_document("http://a/x", "http://a/x#top") && !same_document("http://a/x", "http://a/y"));
    }
}
