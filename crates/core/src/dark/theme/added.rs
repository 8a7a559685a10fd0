//! What a busy page adds after the theme was built (new inline colours, legacy attributes, rules
//! appended to its sheets) built alone, so the page layer adds rules for them and nothing else.

use super::css::{self, Decl};
use super::{emit_inline, emit_sheet_text, Markers, RoleWalk, Roles, Scope};
use crate::dark::markup::emit_attrs;

/// What one scope gained, built alone.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Added {
    /// The override rules, one top-level rule each.
    pub rules: Vec<String>,
    /// The new inline style values' markers.
    pub markers: Markers,
}

/// The override rules for what one scope gained: `added.sheets` hold only the appended rules'
/// text; an inline style's marker whose rule the scope has already (`has_rule`) gets none. None
/// when they give a custom property a role (or a chain) the build did not know, or bring a
/// `<picture>` dark source: the whole theme is built again then.
pub fn build_added(known: &Roles, added: &Scope, has_rule: &dyn Fn(&str) -> bool) -> Option<Added> {
    if !added.scheme_sources.is_empty() {
        return None;
    }
    // Parsed twice, one top-level rule at a time, as the full build does: a new sheet may be big.
    let mut walk = RoleWalk::default();
    for sheet in &added.sheets {
        css::for_each_rule(&sheet.css, |rule| walk.rules(std::slice::from_ref(&rule)));
    }
    let inline: Vec<(&str, Vec<Decl>)> = added.inline_styles.iter().map(|v| (v.as_str(), css::parse_decls(v))).collect();
    let (fresh, chains) = walk.finish(std::slice::from_ref(&inline));
    let new_chain = chains.iter().any(|c| !known.chains.contains(c));
    // The build's roles already follow its chains: a role it knew for every custom property
    // used leaves them as they are, with no copy of them to compare.
    let new_role = fresh.iter().any(|(name, roles)| known.roles.get(name).is_none_or(|k| !roles.is_subset(k)));
    if new_chain || new_role {
        return None;
    }
    let mut out = String::new();
    for sheet in &added.sheets {
        emit_sheet_text(&sheet.css, &sheet.media, &known.roles, &mut out);
    }
    let markers = emit_inline(&inline, &known.roles, has_rule, &mut out);
    emit_attrs(&added.attrs, &mut out);
    Some(Added { rules: top_level_rules(&out), markers })
}

/// Splits override CSS into its top-level rules (for `insertRule`, which takes one at a time).
fn top_level_rules(css: &str) -> Vec<String> {
    let s = css.as_bytes();
    let (mut out, mut start, mut depth, mut i) = (Vec::new(), 0, 0usize, 0);
    while i < s.len() {
        match s[i] {
            b'"' | b'\'' => {
                i = super::css::string_end(s, i);
                continue;
            }
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(css[start..=i].trim().to_string());
                    start = i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{build, build_with_roles, Sheet};
    use super::*;
    use crate::dark::Attr;

    fn sheet(css: &str) -> Sheet {
        Sheet { css: css.into(), media: String::new() }
    }

    /// What a full build writes for `scope` beyond what it writes without the addition.
    fn full_extra(before: &Scope, after: &Scope) -> String {
        let (a, b) = (build(std::slice::from_ref(before)).remove(0), build(std::slice::from_ref(after)).remove(0));
        let mut rest = b.clone();
        // The full build interleaves; every rule of the smaller build is in the larger.
        for rule in top_level_rules(&a) {
            rest = rest.replacen(&rule, "", 1);
        }
        rest
    }

    #[test]
    fn a_new_inline_colour_gets_the_rule_a_full_build_would_write() {
        let before = Scope { sheets: vec![sheet(":root{--ink:#111} p{color:var(--ink)}")], inline_styles: vec!["color: red".into()], ..Default::default() };
        let (_, roles) = build_with_roles(std::slice::from_ref(&before));
        let added = Scope { inline_styles: vec!["background: #fafafa; width: 3px".into(), "color: var(--ink)".into()], ..Default::default() };
        let Added { rules, markers } = build_added(&roles, &added, &|_| false).expect("no new role");
        assert_eq!(rules.len(), 2, "{rules:?}");
        let mut after = before.clone();
        after.inline_styles.extend(added.inline_styles.clone());
        after.inline_styles.sort();
        assert_eq!(rules.concat(), full_extra(&before, &after));
        let (_, full) = build_with_roles(std::slice::from_ref(&after));
        assert!(markers.iter().all(|m| full.markers[0].contains(m)), "the full build names them alike: {markers:?}");
        assert_eq!(markers[0].0, "background: #fafafa; width: 3px");
        assert!(rules[0].starts_with(&format!("[data-dusk-i=\"{}\"]{{background-color:#", markers[0].1)) && !rules[0].ends_with("px;}"), "{rules:?}");
    }

    #[test]
    fn values_that_differ_only_in_what_the_theme_leaves_alone_share_one_rule() {
        let (_, roles) = build_with_roles(&[Scope::default()]);
        let added =
            Scope { inline_styles: vec!["width: 3%; background: #fff".into(), "width: 4%; background: #fff".into(), "width: 5%".into()], ..Default::default() };
        let Added { rules, markers } = build_added(&roles, &added, &|_| false).unwrap();
        assert_eq!(rules.len(), 1, "{rules:?}");
        assert_eq!(markers[0].1, markers[1].1);
        assert_eq!(markers[2], ("width: 5%".to_string(), String::new()), "no colour, no marker");
        // A marker the scope has a rule for already gets none.
        let again = build_added(&roles, &added, &|m| m == markers[0].1).unwrap();
        assert!(again.rules.is_empty() && again.markers == markers, "{again:?}");
    }

    #[test]
    fn appended_rules_and_attributes_are_built_alone() {
        let before = Scope { sheets: vec![sheet(".a{color:#222}")], ..Default::default() };
        let (_, roles) = build_with_roles(std::slice::from_ref(&before));
        let added = Scope {
            sheets: vec![sheet(".c1{background:#fff;padding:4px} @media (min-width: 9px){.c1{color:#333}} .c2{margin:0}")],
            attrs: vec![Attr { name: "bgcolor".into(), value: "#ffffff".into() }],
            ..Default::default()
        };
        let rules = build_added(&roles, &added, &|_| false).expect("no new role").rules;
        assert_eq!(rules.len(), 3, "{rules:?}");
        assert!(rules[0].starts_with(".c1{background-color:#") && rules[1].starts_with("@media (min-width: 9px){.c1{color:#"), "{rules:?}");
        assert!(rules[2].starts_with("[bgcolor=\"#ffffff\" i]{background-color:#"), "{rules:?}");
    }

    #[test]
    fn a_custom_property_in_a_new_role_asks_for_a_full_build() {
        let before = Scope { sheets: vec![sheet(":root{--brand:#fff} body{background:var(--brand)}")], ..Default::default() };
        let (_, roles) = build_with_roles(std::slice::from_ref(&before));
        // --brand as text colour needs a twin the built theme lacks.
        assert_eq!(build_added(&roles, &Scope { inline_styles: vec!["color: var(--brand)".into()], ..Default::default() }, &|_| false), None);
        // A new chain hands roles on.
        assert_eq!(build_added(&roles, &Scope { sheets: vec![sheet(":root{--brand: var(--x)}")], ..Default::default() }, &|_| false), None);
        // Defining a known property again, or using it in its known role, is fine.
        let same =
            build_added(&roles, &Scope { sheets: vec![sheet(".x{--brand:#eee;background:var(--brand)}")], ..Default::default() }, &|_| false).unwrap().rules;
        assert!(same[0].contains("--dusk-bg-brand:#"), "{same:?}");
    }

    #[test]
    fn a_role_the_build_knew_through_a_chain_is_known() {
        let before = Scope { sheets: vec![sheet(":root{--brand:#fff;--a:var(--brand)} body{background:var(--a)}")], ..Default::default() };
        let (_, roles) = build_with_roles(std::slice::from_ref(&before));
        // --brand is a background only through --a: using it as one directly needs no full build.
        let added = build_added(&roles, &Scope { sheets: vec![sheet(".y{background:var(--brand)}")], ..Default::default() }, &|_| false);
        assert!(added.is_some_and(|a| a.rules.iter().any(|r| r.contains(".y"))));
        // As a text colour it is a new role.
        assert_eq!(build_added(&roles, &Scope { sheets: vec![sheet(".y{color:var(--brand)}")], ..Default::default() }, &|_| false), None);
    }

    #[test]
    fn rules_split_at_top_level_only() {
        let css = "a{color:red}@media x{b{color:\"}\"}c{d:e}}[style=\"a:b}\"]{x:y}";
        assert_eq!(top_level_rules(css), vec!["a{color:red}", "@media x{b{color:\"}\"}c{d:e}}", "[style=\"a:b}\"]{x:y}"]);
    }
}
