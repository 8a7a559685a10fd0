//! The site a Customize run works on, as its tools share it: the host and its record, the gate
//! every save waits at, and CSS tried on the page under the guard.

use crate::agent::{ConfirmLevel, Gate};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::SitePolicy;
use crate::browser_agent::tools::action::Ctx;
use crate::customize::{guard, SiteCustom};
use crate::dark_agent::sanitize::{sanitize, Sanitized};
use crate::protocol::css::{CssApplied, ThemeQuality};
use crate::protocol::{ContentRequest, ContentResponse};

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
    Gate { level, reasons: vec![reason.into()], target: None, page: Some(url), detail: Some(detail), declined: None, refused: None }
}

/// CSS tried on the page in the customisation's place, and what the guard measured.
pub struct Tried {
    pub clean: Sanitized,
    pub applied: CssApplied,
    pub quality: ThemeQuality,
}

/// Puts `css` on the page as a preview and measures it against the run's baseline: Err (for the
/// model) when it can't be measured or hides the main text, and then the preview comes off.
/// Both `preview_css` and `save_site_css` go through here, so a save can't skip the guard.
pub async fn try_css<B: Browser>(ctx: &Ctx<'_, '_, B>, css: &str) -> Result<Tried, String> {
    let s = ctx.host;
    let clean = sanitize(css)?;
    let applied = match s.rpc(ContentRequest::PreviewSiteCss { css: clean.css.clone() }).await? {
        ContentResponse::CssApplied(c) => c,
        other => return Err(other.unexpected()),
    };
    let end_preview = || s.rpc(ContentRequest::PreviewSiteCss { css: String::new() });
    let quality = match s.browser.measure_page(s.tab(), false).await {
        Ok(q) => q,
        Err(e) => {
            let _ = end_preview().await;
            return Err(format!("the CSS could not be checked on the page ({e}), so it was taken off"));
        }
    };
    let baseline = s.run.borrow().baseline.clone().unwrap_or_default();
    if let Err(reason) = guard::check(&quality, &baseline) {
        let _ = end_preview().await;
        return Err(reason);
    }
    Ok(Tried { clean, applied, quality })
}
