//! Caps on what one content RPC may ask for, so no request can hang a page or blow up a reply.

use super::actions::Target;
use super::ContentRequest;

/// Elements per `get_elements` page.
pub const ELEMENTS: u32 = 5_000;
/// Elements named by one `click_listeners`, and steps down to each.
pub const LISTENER_PATHS: usize = 10_000;
pub const PATH_STEPS: usize = 1_000;
/// Characters of page text in `page_summary`.
pub const SUMMARY_TEXT: u32 = 20_000;
/// Tokens of `text_snapshot`.
pub const SNAPSHOT_TOKENS: u32 = 20_000;
/// Characters `type_text` types (one key event each).
pub const TYPED_CHARS: usize = 10_000;
/// Characters of a CSS selector or a query description.
pub const SELECTOR: usize = 4_000;
/// Bytes of CSS in `apply_css` / `dark_theme_preview`.
pub const CSS_BYTES: usize = 1024 * 1024;
/// Characters of a key name in `press_key`.
pub const KEY: usize = 64;
/// CSS pixels a point may lie from the viewport's origin.
pub const COORDINATE: f64 = 1_000_000.0;

/// Err (a message for the caller) for CSS over `CSS_BYTES`.
pub fn css_ok(css: &str) -> Result<(), String> {
    if css.len() > CSS_BYTES {
        return Err(format!("the CSS is {} KB; at most {} KB are accepted", css.len() / 1024, CSS_BYTES / 1024));
    }
    Ok(())
}

impl ContentRequest {
    /// The request with every limit clamped to `caps`; Err (a message for the caller) when a
    /// string is longer than its cap, which no real use needs.
    pub fn bounded(self) -> Result<ContentRequest, String> {
        let too_long = |what: &str, n: usize, cap: usize| {
            if n > cap {
                Err(format!("the {what} is {n} characters; at most {cap} are accepted"))
            } else {
                Ok(())
            }
        };
        let point_ok = |x: f64, y: f64| {
            if x.is_finite() && y.is_finite() && x.abs() <= COORDINATE && y.abs() <= COORDINATE {
                Ok(())
            } else {
                Err(format!("coordinates ({x}, {y}) are out of range"))
            }
        };
        let target_ok = |t: &Target| too_long("selector", t.selector.as_ref().map_or(0, |s| s.chars().count()), SELECTOR);
        Ok(match self {
            ContentRequest::GetElements { filter, visible_only, limit, offset } => {
                ContentRequest::GetElements { filter, visible_only, limit: limit.min(ELEMENTS), offset }
            }
            ContentRequest::ClickListeners { mut paths, add } => {
                paths.truncate(LISTENER_PATHS);
                paths.retain(|p| p.len() <= PATH_STEPS);
                ContentRequest::ClickListeners { paths, add }
            }
            ContentRequest::PageSummary { text_limit } => ContentRequest::PageSummary { text_limit: text_limit.min(SUMMARY_TEXT) },
            ContentRequest::TextSnapshot { token_budget } => ContentRequest::TextSnapshot { token_budget: token_budget.min(SNAPSHOT_TOKENS) },
            ContentRequest::CountElements { ref selector } | ContentRequest::Inspect { ref selector, .. } => {
                too_long("selector", selector.chars().count(), SELECTOR)?;
                self
            }
            ContentRequest::QueryElements { ref description, .. } => {
                too_long("description", description.chars().count(), SELECTOR)?;
                self
            }
            ContentRequest::TypeText { ref target, ref text, ref at, .. } => {
                target_ok(target)?;
                too_long("text to type", text.chars().count(), TYPED_CHARS)?;
                if let Some(super::actions::TypeAt::AfterLine(s) | super::actions::TypeAt::Replace(s)) = at {
                    too_long("text to find", s.chars().count(), TYPED_CHARS)?;
                }
                self
            }
            ContentRequest::PressKey { ref target, ref key, .. } => {
                target_ok(target)?;
                too_long("key name", key.chars().count(), KEY)?;
                self
            }
            ContentRequest::ApplyCss { ref css, .. } | ContentRequest::PreviewSiteCss { ref css } => {
                css_ok(css)?;
                self
            }
            ContentRequest::Click { ref target, .. }
            | ContentRequest::Hover { ref target }
            | ContentRequest::Select { ref target, .. }
            | ContentRequest::Scroll { ref target, .. } => {
                target_ok(target)?;
                point_ok(target.x.unwrap_or(0.0), target.y.unwrap_or(0.0))?;
                self
            }
            ContentRequest::DragDrop { from, to } => {
                point_ok(from.x, from.y)?;
                point_ok(to.x, to.y)?;
                self
            }
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::page::ElementFilter;

    #[test]
    fn limits_are_clamped_and_absurd_strings_refused() {
        let r = ContentRequest::GetElements { filter: ElementFilter::All, visible_only: false, limit: 1_000_000_000, offset: 0 }.bounded();
        assert!(matches!(r, Ok(ContentRequest::GetElements { limit: ELEMENTS, .. })));
        let long = "a".repeat(1_000_000);
        let typed = ContentRequest::TypeText { target: Target::index(1), text: long.clone(), clear: false, at: None }.bounded();
        assert!(typed.unwrap_err().contains("at most 10000"));
        assert!(ContentRequest::CountElements { selector: long }.bounded().is_err());
        assert!(ContentRequest::TypeText { target: Target::index(1), text: "مرحبا 👋🏽".into(), clear: true, at: None }.bounded().is_ok());
        assert_eq!(ContentRequest::Ping.bounded(), Ok(ContentRequest::Ping));
        let paths = vec![vec![0; PATH_STEPS + 1], vec![0, 1, -1, 2]];
        let Ok(ContentRequest::ClickListeners { paths, .. }) = ContentRequest::ClickListeners { paths, add: false }.bounded() else { panic!("kept") };
        assert_eq!(paths, vec![vec![0, 1, -1, 2]], "a path past the cap is dropped");
        let many = ContentRequest::ClickListeners { paths: vec![vec![0]; LISTENER_PATHS + 5], add: true }.bounded();
        assert!(matches!(many, Ok(ContentRequest::ClickListeners { paths, add: true }) if paths.len() == LISTENER_PATHS));
    }
}
