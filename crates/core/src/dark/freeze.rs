//! The sheet that holds a page's own CSS transitions off while the theme switches, so colours
//! change in one frame instead of animating. It names only the rules that declare transitions:
//! a universal `*` rule would make the browser restyle every element and pseudo-element again.

use super::css::{self, Rule};
use super::theme::Scope;
use std::collections::BTreeSet;

const OFF: &str = "{transition:none!important}";

/// CSS that turns the scope's transitions off, or "" when nothing in it transitions.
pub fn freeze_css(scope: &Scope) -> String {
    let mut selectors = BTreeSet::new();
    let mut nested = false;
    for sheet in scope.sheets.iter().filter(|s| s.css.contains("transition")) {
        collect(&css::parse_sheet(&sheet.css), &mut selectors, &mut nested, false);
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
}
