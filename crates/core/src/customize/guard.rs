//! The customize guard: a preview may hide things (that is often the point), but never most of
//! the page's text; the main text staying readable is a rule in code, not in the prompt.

use crate::protocol::css::ThemeQuality;

/// More than this share of the visible text hidden means the main text went with it.
pub const MAX_HIDDEN_SHARE: f64 = 0.4;

/// Err with the reason when `preview` hid the page's main text, measured against `baseline`.
pub fn check(preview: &ThemeQuality, baseline: &ThemeQuality) -> Result<(), String> {
    let total = baseline.text_elements.max(1);
    let share = f64::from(preview.hidden_text) / f64::from(total);
    if share > MAX_HIDDEN_SHARE {
        let examples = preview.hidden.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
        return Err(format!(
            "refused: this CSS hides {} of the page's {} visible text elements ({:.0}%, e.g. {examples}), which would hide its main text; hide only the part the user asked about",
            preview.hidden_text,
            total,
            share * 100.0
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: u32, hidden: u32) -> ThemeQuality {
        ThemeQuality { text_elements: text, hidden_text: hidden, hidden: vec!["main p".into()], ..Default::default() }
    }

    #[test]
    fn a_banner_may_go_the_main_text_may_not() {
        assert!(check(&q(20, 3), &q(23, 0)).is_ok());
        let e = check(&q(3, 20), &q(23, 0)).unwrap_err();
        assert!(e.starts_with("refused") && e.contains("20 of the page's 23") && e.contains("main p"), "{e}");
        assert!(check(&q(0, 0), &q(0, 0)).is_ok(), "an empty page");
    }
}
