//! Seed 002's tools, one module each, plus the browser agent's reading tools.

pub mod preview_css;
pub mod read_site;
pub mod save_site;

use crate::agent::{ConfirmLevel, Gate, Registry};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::SitePolicy;
use crate::browser_agent::session::BrowserSession;
pub use crate::browser_agent::tools::Ctx;
use crate::browser_agent::tools::{get_element_details, get_elements, screenshot, scroll};
use crate::customize::SiteCustom;

pub fn registry<'h, B: Browser>() -> Registry<BrowserSession<'h, B>> {
    Registry::new()
        .with(read_site::ReadSiteCss)
        .with(read_site::ReadSiteJs)
        .with(get_elements::GetElements)
        .with(get_element_details::GetElementDetails)
        .with(scroll::Scroll)
        .with(screenshot::Screenshot)
        .with(preview_css::PreviewCss)
        .with(save_site::SaveSiteCss)
        .with(save_site::SaveSiteJs)
}

/// The host the run customises: its page's.
pub fn host<B: Browser>(ctx: &Ctx<'_, '_, B>) -> Result<String, String> {
    let url = ctx.host.run.borrow().url.clone();
    crate::dark::site::host_of(&url).map_err(|_| format!("{url} can't be customised; open a web page"))
}

pub async fn record<B: Browser>(ctx: &Ctx<'_, '_, B>) -> Result<SiteCustom, String> {
    let host = host(ctx)?;
    ctx.host.browser.site_custom(&host).await
}

/// A save always waits for the user's click, and never happens on a site the user blocked.
pub fn save_gate<B: Browser>(ctx: &Ctx<'_, '_, B>, detail: String) -> Gate {
    let url = ctx.host.run.borrow().url.clone();
    let (level, reason) = match ctx.host.policy() {
        SitePolicy::Block => (ConfirmLevel::Block, "you blocked Dusk's agent on this site"),
        _ => (ConfirmLevel::Confirm, "saving changes this site on every visit"),
    };
    Gate { level, reasons: vec![reason.into()], target: None, page: Some(url), detail: Some(detail), declined: None }
}
