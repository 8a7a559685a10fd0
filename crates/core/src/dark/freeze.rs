//! The sheet that holds a page's own CSS transitions off while the theme switches, so colours
//! change in one frame instead of animating. It names only the rules that declare transitions:
//! a universal `*` rule would make the browser restyle every element and pseudo-element again.
//! It also holds big `<select>`s at their width for that frame (see `HeldWidth`).

use super::css::{self, Rule};
use super::theme::Scope;
use std::collections::BTreeSet;

const OFF: &str = "{transition:none!important}";

/// CSS that turns the scope's transitions off, or "" when nothing in it transitions.
pub fn freeze_css(scope: &Scope) -> String {
    let mut selectors = BTreeSet::new();
    let mut nested = false;
    for sheet in scope.sheets.iter().filter(|s| s.css.contains("transition")) {
        // One top-level rule at a time: the layer's memory keeps its peak, and a big sheet parses to several times its size.
        css::for_each_rule(&sheet.css, |rule| collect(std::slice::from_ref(&rule), &mut selectors, &mut nested, false));
    }
    let inline = scope.inline_styles.iter().any(|s| css::parse_decls(s).iter().any(|d| is_transition(&d.name)));
    if nested {
        // A nested rule's selector only means something inside its parent: freeze everything.
        return format!("*,*::before,*::after{OFF}");
    }
    let mut out: String = selectors.iter().map(|sel| format!("{sel}{OFF}\n")).collect();
    if inline {
        out.push_str(&format!("[style*=\"transition\"]{OFF}\n"));
    }
    out
}

/// Selects with fewer options re-measure too fast to matter.
pub const HOLD_MIN_OPTIONS: u32 = 32;
/// Enough for any real form; bounds the sheet on a page made of selects.
pub const HOLD_MAX: usize = 16;

/// A drop-down `<select>` held at its width for the switching frame. Recolouring one makes the
/// browser measure every option's text again for its intrinsic width (~5 ms for 337 options);
/// at a fixed width that work waits until after the dark frame, when it changes nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldWidth {
    /// A selector that matches only this select (the page layer's `unique_selector`).
    pub selector: String,
    /// Its computed `width` (box-sizing unchanged), in CSS px.
    pub width_px: f64,
}

/// One rule per held select.
pub fn hold_widths_css(held: &[HeldWidth]) -> String {
    held.iter()
        .take(HOLD_MAX)
        .filter(|h| !h.selector.is_empty() && h.width_px.is_finite() && h.width_px > 0.0)
        .map(|h| format!("{}{{width:{}px!important}}\n", h.selector, (h.width_px * 100.0).round() / 100.0))
        .collect()
}

fn is_transition(name: &str) -> bool {
    name == "transition" || name.starts_with("transition-")
}

fn collect(rules: &[Rule], out: &mut BTreeSet<String>, nested: &mut bool, inside_style_rule: bool) {
    for rule in rules {
        if rule.is_at_rule() {
            // Media, supports, layers and the like: their rules may apply, so freeze them all.
            collect(&rule.children, out, nested, inside_style_rule);
            continue;
        }
        if rule.decls.iter().any(|d| is_transition(&d.name)) {
            if inside_style_rule {
                *nested = true;
            } else {
                // One rule per selector: an invalid selector drops only its own rule.
                out.insert(rule.prelude.trim().to_string());
            }
        }
        collect(&rule.children, out, nested, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dark::Sheet;

    fn scope(css: &str) -> Scope {
        Scope { sheets: vec![Sheet { css: css.into(), media: String::new() }], ..Default::default() }
    }

    #[test]
    fn nothing_to_freeze() {
        assert_eq!(freeze_css(&scope("a { color: red; } .x { animation: spin 1s; }")), "");
        assert_eq!(freeze_css(&Scope::default()), "");
    }

    #[test]
    fn only_the_rules_that_transition() {
        let out = freeze_css(&scope(
            "a { color: red; } .btn, .card { transition: color 0.3s; } @media (min-width: 1px) { nav a::after { transition-property: background-color; } }",
        ));
        assert_eq!(out, format!(".btn, .card{OFF}\nnav a::after{OFF}\n"));
    }

    #[test]
    fn inline_and_nested_transitions() {
        let inline = Scope { inline_styles: vec!["color: red; transition: all 1s".into()], ..Default::default() };
        assert_eq!(freeze_css(&inline), format!("[style*=\"transition\"]{OFF}\n"));
        assert!(freeze_css(&scope(".a { color: red; & .b { transition: color 1s; } }")).starts_with("*,"));
    }

    #[test]
    fn held_widths_name_one_select_each() {
        let held =
            [HeldWidth { selector: "#country".into(), width_px: 181.333_33 }, HeldWidth { selector: "form > select:nth-of-type(2)".into(), width_px: 90.0 }];
        assert_eq!(hold_widths_css(&held), "#country{width:181.33px!important}\nform > select:nth-of-type(2){width:90px!important}\n");
    }

    #[test]
    fn unrendered_or_too_many_selects_are_not_held() {
        let at = |selector: &str, width_px| HeldWidth { selector: selector.into(), width_px };
        assert_eq!(hold_widths_css(&[at("", 10.0), at("#a", 0.0), at("#a", f64::NAN)]), "");
        let many: Vec<_> = (1..40).map(|n| at(&format!("#s{n}"), 50.0)).collect();
        assert_eq!(hold_widths_css(&many).lines().count(), HOLD_MAX);
    }
}
