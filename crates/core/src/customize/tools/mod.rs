//! Customize's own tools, one module each, plus the browser agent's reading tools.

pub mod preview_css;
pub mod read_site;
pub mod run_site;
pub mod save_site;

use crate::agent::Registry;
use crate::browser_agent::browser::Browser;
use crate::browser_agent::session::BrowserSession;
use crate::browser_agent::tools::{get_element_details, get_elements, screenshot, scroll};

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
