//! Declarations the theme leaves out because they paint nothing yet cost the browser work.

use super::css::Decl;

/// `content` on an element itself (not ::before, ::after or ::marker) with no image in it: Chromium
/// draws nothing for it, but a change rebuilds the element's layout box. rustdoc's
/// `@media (prefers-color-scheme: dark) { html { content: "dark" } }`, a flag for browsers without
/// matchMedia, made switching a long rustdoc page on relayout the whole page (~70 ms of ~160).
pub fn paints_nothing(selector: &str, d: &Decl) -> bool {
    if d.name != "content" {
        return false;
    }
    let selector = selector.to_ascii_lowercase();
    let generated = [":before", ":after", ":marker"].iter().any(|p| selector.contains(p));
    let value = d.value.to_ascii_lowercase();
    let image = ["url(", "image", "gradient("].iter().any(|i| value.contains(i));
    !generated && !image
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(name: &str, value: &str) -> Decl {
        Decl { name: name.into(), value: value.into(), important: false }
    }

    #[test]
    fn a_text_flag_on_an_element_paints_nothing() {
        assert!(paints_nothing("html", &decl("content", "\"dark\"")));
        assert!(paints_nothing(":root", &decl("content", "none")));
    }

    #[test]
    fn generated_content_images_and_other_properties_are_kept() {
        assert!(!paints_nothing("a::after", &decl("content", "\" ↗\"")));
        assert!(!paints_nothing("li:before", &decl("content", "\"•\"")));
        assert!(!paints_nothing("img.logo", &decl("content", "url(logo-dark.svg)")));
        assert!(!paints_nothing("html", &decl("display", "none")));
    }
}
