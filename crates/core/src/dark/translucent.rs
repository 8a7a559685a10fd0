//! Text a colour mapping alone can't keep at AA: inside an element painted translucent (`opacity`
//! between 0 and 1), which blends the text with whatever lies behind it. The page's rules say
//! which elements may be painted so; the content layer measures only those, once painted.

use super::css::{for_each_rule, Rule};
use super::theme::Scope;

/// Selectors handed to the page at most: a page with more translucent rules is measured by these.
const MAX_SELECTORS: usize = 200;

/// The selectors of the scope's rules that may paint an element translucent, and
/// `[style*=opacity]` if an inline style sets it. A sheet that never names `opacity` isn't parsed.
pub fn selectors(scope: &Scope) -> Vec<String> {
    let mut out = Vec::new();
    for sheet in scope.sheets.iter().filter(|s| s.css.contains("opacity")) {
        // One top-level rule at a time: the layer's memory keeps its peak, and a big sheet parses to several times its size.
        for_each_rule(&sheet.css, |rule| collect(std::slice::from_ref(&rule), &mut out));
    }
    if scope.inline_styles.iter().any(|s| s.contains("opacity")) {
        out.push("[style*=\"opacity\"]".to_string());
    }
    out.dedup();
    out.truncate(MAX_SELECTORS);
    out
}

/// `selectors` of a scope, brought up to date with what it gained since (`added`: the appended
/// rules, new sheets and inline styles): only what was added is read.
pub fn extend(list: &mut Vec<String>, added: &Scope) {
    for selector in selectors(added) {
        if list.len() >= MAX_SELECTORS {
            break;
        }
        if !list.contains(&selector) {
            list.push(selector);
        }
    }
}

fn collect(rules: &[Rule], out: &mut Vec<String>) {
    for rule in rules {
        if rule.is_at_rule() {
            // A keyframe's opacity is an animation's step, not a rule that matches elements.
            if !rule.at_name().ends_with("keyframes") {
                collect(&rule.children, out);
            }
            continue;
        }
        // Nested rules (`&`) are matched through their parent, whose selector is listed anyway.
        if !rule.prelude.contains('&') && rule.decls.iter().any(|d| d.name == "opacity" && may_dim(&d.value)) && !out.contains(&rule.prelude) {
            out.push(rule.prelude.clone());
        }
        collect(&rule.children, out);
    }
}

/// Whether an `opacity` value may lie strictly between 0 and 1: a number or percentage that does,
/// or a value only the page resolves (`var()`, `calc()`).
fn may_dim(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    let number = match v.strip_suffix('%') {
        Some(p) => crate::page::number::parse_number(p.trim()).map(|x| x / 100.0),
        None => crate::page::number::parse_number(&v),
    };
    match number {
        Some(x) => x > 0.0 && x < 1.0,
        None => v.contains("var(") || v.contains("calc(") || v.contains("env("),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dark::theme::Sheet;

    fn scope(css: &str, inline: &[&str]) -> Scope {
        Scope {
            sheets: vec![Sheet { css: css.into(), media: String::new() }],
            inline_styles: inline.iter().map(|s| s.to_string()).collect(),
            ..Scope::default()
        }
    }

    #[test]
    fn rules_that_may_paint_translucent_are_named() {
        // nbconvert's prompts take their opacity from a custom property.
        let css = ".jp-InputPrompt { color: var(--c); opacity: var(--jp-cell-prompt-opacity); }\
                   .dim { opacity: .5 } .half { opacity: 50% } .shown { opacity: 1 } .gone { opacity: 0 }\
                   @media (min-width: 1px) { .wide { opacity: 0.7 } }\
                   @keyframes fade { from { opacity: 0.2 } to { opacity: 1 } }\
                   .fade { transition: opacity .3s }";
        assert_eq!(selectors(&scope(css, &[])), [".jp-InputPrompt", ".dim", ".half", ".wide"]);
        assert_eq!(selectors(&scope("p { color: red }", &["opacity: .4"])), ["[style*=\"opacity\"]"]);
        assert!(selectors(&scope("p { color: red }", &["color: red"])).is_empty());
    }

    #[test]
    fn what_a_scope_gained_extends_its_selectors_as_reading_it_whole_would() {
        let before = scope(".a { opacity: .5 } .b { color: red }", &[]);
        let mut list = selectors(&before);
        let added = scope(".c { opacity: .3 } .a { opacity: .6 } .d { color: blue }", &["opacity: .2"]);
        extend(&mut list, &added);
        let mut whole = before.clone();
        whole.sheets.extend(added.sheets.clone());
        whole.inline_styles.extend(added.inline_styles.clone());
        let (mut a, mut b) = (list.clone(), selectors(&whole));
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(list, [".a", ".c", "[style*=\"opacity\"]"]);
    }
}
