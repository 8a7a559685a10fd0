//! The theme builder on small pages: what it mirrors, maps, keeps and leaves out.

use super::*;
use crate::dark::css_text::escape;

fn one(css: &str) -> String {
    build(&[Scope { sheets: vec![Sheet { css: css.into(), media: String::new() }], ..Default::default() }]).remove(0)
}

#[test]
fn overrides_only_colour_declarations_with_the_same_selector() {
    let out = one("body { margin: 0; background: #fff; color: rgb(34, 34, 34) } p.x { font-weight: bold }");
    assert!(out.contains("body{background-color:#"), "{out}");
    assert!(!out.contains("margin") && !out.contains("p.x"), "{out}");
    // A mirrored shorthand would re-set the width over the page's own later `border: 0`.
    let out = one("h1 { border-bottom: 1px solid #ccc } h1 { border: 0 }");
    assert!(out.contains("h1{border-bottom-color:#") && !out.contains("1px"), "{out}");
}

#[test]
fn custom_properties_get_a_twin_per_role_and_usages_point_at_it() {
    let out = one(":root{--main:#fff;--ink:#111;--gap:4px} body{background:var(--main);color:var(--ink)} hr{border-color:var(--ink)}");
    assert!(out.contains("--dusk-bg-main:#"), "{out}");
    assert!(out.contains("--dusk-fg-ink:#") && out.contains("--dusk-bd-ink:#"), "{out}");
    assert!(!out.contains("gap"), "{out}");
    assert!(out.contains("background:var(--dusk-bg-main, var(--main))"), "{out}");
}

#[test]
fn var_chains_pass_roles_down() {
    let out = one(":root{--white:#fff;--page:var(--white)} body{background:var(--page)}");
    assert!(out.contains("--dusk-bg-white:#"), "{out}");
    assert!(out.contains("--dusk-bg-page:var(--dusk-bg-white, var(--white))"), "{out}");
}

#[test]
fn the_sites_own_dark_rules_are_mirrored_as_colours_only() {
    let out = one("a{color:blue} @media (prefers-color-scheme: dark) { img.logo { display: none } body { color: #eee; border: 1px solid #333 } }");
    assert!(out.contains("@media (min-width:0px){body{color:#eee;border-color:#333;}}"), "{out}");
    assert!(!out.contains("display") && !out.contains("1px"), "{out}");
    // furo's pygments: mirrored after the page's sheets, this shrank every code block.
    assert_eq!(one("@media (prefers-color-scheme: dark) { .highlight pre { line-height: 125%; } }"), one(""));
    let light = one("@media screen and (prefers-color-scheme: light) { body { color: #000 } }");
    assert!(light.contains("@media screen and (max-width:-1px)"), "{light}");
    // A condition the page layer switched on in place reads as the site's dark scheme.
    assert!(one("@media (prefers-color-scheme) { body { color: #eee } }").contains("@media (min-width:0px){body{color:#eee;}}"));
}

#[test]
fn a_dark_scheme_flag_that_paints_nothing_is_left_out() {
    // rustdoc's flag: mirrored, it relaid the whole page out on switch-on.
    let out = one("@media (prefers-color-scheme: dark) { html { content: \"dark\" } a::after { content: \"*\" } }");
    assert!(!out.contains("content"), "{out}");
    assert_eq!(one("@media (prefers-color-scheme: dark) { html { content: \"dark\" } }"), one(""));
}

#[test]
fn importance_is_kept_and_inline_styles_are_beaten() {
    let out = one("p{color:red!important}");
    assert!(out.contains("p{color:#") && out.contains("!important"), "{out}");
    let scopes = [Scope { inline_styles: vec!["background: white; width: 3px".into(), "say: \"hi\"".into()], ..Default::default() }];
    let (mut css, roles) = crate::dark::theme::build_with_roles(&scopes);
    let out = css.remove(0);
    let marker = &roles.markers[0][0];
    assert_eq!(marker.0, "background: white; width: 3px");
    assert!(out.contains(&format!("[data-dusk-i=\"{}\"]{{background-color:#", marker.1)), "{out}");
    assert!(out.contains("!important;}") && !out.contains("px;"), "{out}");
    assert_eq!(roles.markers[0][1], ("say: \"hi\"".to_string(), String::new()), "no colour, no marker");
}

#[test]
fn sheet_media_and_at_rules_are_mirrored() {
    let s = Sheet { css: "@supports (display:grid){a{color:#000}} @keyframes k{from{color:red}}".into(), media: "print".into() };
    let out = build(&[Scope { sheets: vec![s], ..Default::default() }]).remove(0);
    assert!(out.contains("@media print{@supports (display:grid){a{color:#"), "{out}");
    assert!(!out.contains("keyframes"), "{out}");
}

#[test]
fn shadow_scopes_get_no_page_base_but_share_var_roles() {
    let doc = Scope { sheets: vec![Sheet { css: ":root{--x:#fff}".into(), media: String::new() }], ..Default::default() };
    let shadow = Scope { sheets: vec![Sheet { css: ":host{background:var(--x)}".into(), media: String::new() }], ..Default::default() };
    let out = build(&[doc, shadow]);
    assert!(out[0].starts_with(":root{color-scheme:dark") && out[0].contains("--dusk-bg-x"), "{}", out[0]);
    assert_eq!(out[1], ":host{background:var(--dusk-bg-x, var(--x));}");
}

#[test]
fn svgs_on_the_default_black_fill_follow_the_text_colour() {
    let out = one("");
    assert!(out.contains(":where(svg[data-dusk-icon]:not([fill])){fill:currentColor}"), "{out}");
}

#[test]
fn svg_paint_keeps_the_pages_own_value_beside_the_mapped_one() {
    let out = one(".disc{fill:#052962} .line{stroke:var(--ink)!important} .none{fill:none}");
    assert!(out.contains(".disc{--dusk-fill:#052962;fill:#"), "{out}");
    assert!(out.contains("--dusk-stroke:var(--ink)!important;stroke:var(--dusk-fg-ink, var(--ink))!important"), "{out}");
    assert!(out.contains(".none{--dusk-fill:none;}"), "a shape that paints nothing says so: {out}");
}

#[test]
fn light_dark_is_left_to_the_forced_dark_scheme() {
    let out = one("body{background:light-dark(#fff,#101418);color:light-dark(#1f2328,#e3e8ef)} a{color:#00e}");
    assert!(!out.contains("body{"), "the site's own dark values apply as written: {out}");
    assert!(out.starts_with(":root{color-scheme:dark!important}"), "{out}");
}

#[test]
fn the_sites_own_dark_palette_goes_on_unmapped() {
    let out = one(
        ":root{--bg:#fff;--text:#1b1b1f} @media (prefers-color-scheme: dark){:root{--bg:#111318;--text:#e4e6eb}} body{background:var(--bg);color:var(--text)}",
    );
    assert!(out.contains("@media (min-width:0px){:root{--dusk-bg-bg:#111318;--dusk-fg-text:#e4e6eb;}}"), "{out}");
    assert!(out.contains("body{background:var(--dusk-bg-bg, var(--bg));color:var(--dusk-fg-text, var(--text));}"), "{out}");
}

#[test]
fn a_table_border_grid_gets_a_border_colour_not_the_text_colour() {
    let out = one("");
    let grid = map(Rgba::rgb(128, 128, 128), Role::Border);
    // Chromium draws an inset border's lit side with the brightest channel raised by a third.
    let lit = ((grid.r / 255.0 + 0.33).min(1.0) * 255.0) as u8;
    assert!(Rgba::rgb(lit, lit, lit).luminance() < 0.5 && grid.luminance() > 0.05, "{grid:?}");
    assert!(out.contains(&format!(":where(table[border]){{border-color:{}}}", grid.to_css())), "{out}");
}

#[test]
fn escapes_attribute_values() {
    assert_eq!(escape("a\"b\\c\n"), "a\\\"b\\\\c\\a ");
}

#[test]
fn a_colourless_declaration_changes_no_marker() {
    let bases = ["color: red", "background: #fafafa", "border: 1px solid #ddd", "background-color: hsl(0, 80%, 92%); color: #222"];
    let values = ["10px", "37%", "auto", "translate(2px, 3px)", "1", "0 4px", "calc(100% - 2em)", "red", "2px solid #123456"];
    for name in crate::dark::theme::COLOURLESS {
        for value in values {
            let alone = format!("{name}: {value}");
            let mut styles: Vec<String> = vec![alone.clone()];
            for base in bases {
                styles.push(base.to_string());
                styles.push(format!("{name}: {value}; {base}"));
                styles.push(format!("{base}; {name}: {value}"));
            }
            let (_, roles) = crate::dark::theme::build_with_roles(&[Scope { inline_styles: styles.clone(), ..Default::default() }]);
            let marker = |v: &str| roles.markers[0].iter().find(|(t, _)| t == v).map(|(_, m)| m.clone()).unwrap_or_else(|| panic!("no marker for {v}"));
            assert_eq!(marker(&alone), "", "{alone} alone gets no rule");
            for base in bases {
                let want = marker(base);
                assert!(!want.is_empty(), "{base}");
                assert_eq!(marker(&format!("{name}: {value}; {base}")), want, "{name}: {value} before {base}");
                assert_eq!(marker(&format!("{base}; {name}: {value}")), want, "{name}: {value} after {base}");
            }
        }
    }
}
