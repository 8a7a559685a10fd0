//! Builds the dark stylesheet for a page: one override sheet per style scope (the document and
//! each open shadow root), mirroring the page's rules so the cascade picks our colours exactly
//! where it picked the page's.

use super::color::Rgba;
use super::css::{self, Decl, Rule};
use super::css_text::{raw_paint, rewrite_media, wrap};
use super::inert::paints_nothing;
use super::map::{base_bg, base_fg, map, Role};
use super::markup::{emit_attrs, emit_scheme_sources};
pub use super::markup::{Attr, SchemeSource};
use super::shorthand::colour_longhands;
use super::value::{rewrite, role_of, twin, var_refs};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

mod added;
mod colourless;
pub use added::{build_added, Added};
pub use colourless::{colourless_names, COLOURLESS};

/// One stylesheet as CSSOM serialises it, with the media list it is gated by ("" for none).
/// The text is shared: the content script's sheet cache and its last build's input hold the same
/// sheets, and a CSS-heavy page's text is megabytes of the layer's wasm memory, which never shrinks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sheet {
    pub css: Rc<str>,
    #[serde(default)]
    pub media: String,
}

/// Everything that styles one scope (the document or a shadow root).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Scope {
    pub sheets: Vec<Sheet>,
    /// Distinct `style` attribute values that appear in the scope.
    pub inline_styles: Vec<String>,
    pub attrs: Vec<Attr>,
    /// `<picture>` sources gated by `prefers-color-scheme`.
    #[serde(default)]
    pub scheme_sources: Vec<SchemeSource>,
}

/// The most markup values a scope remembers between full builds. A feed that writes a new value
/// per card (a width) would otherwise grow the lists, and each sorted insert, for the page's life;
/// a value forgotten is only mapped again when it comes back (its marker's rule stays).
pub const MAX_KNOWN_MARKUP: usize = 4096;

impl Scope {
    /// Takes in a batch's new inline values and legacy attributes, each once and in order,
    /// without sorting the lists again; past [`MAX_KNOWN_MARKUP`] the last in order are forgotten.
    pub fn merge_markup(&mut self, inline_styles: Vec<String>, attrs: Vec<Attr>) {
        merge_sorted(&mut self.inline_styles, inline_styles);
        merge_sorted(&mut self.attrs, attrs);
        self.inline_styles.truncate(MAX_KNOWN_MARKUP);
        self.attrs.truncate(MAX_KNOWN_MARKUP);
    }
}

fn merge_sorted<T: Ord>(list: &mut Vec<T>, items: Vec<T>) {
    if items.len() > 32 {
        list.extend(items);
        list.sort();
        list.dedup();
        return;
    }
    for item in items {
        if let Err(at) = list.binary_search(&item) {
            list.insert(at, item);
        }
    }
}

/// Custom property name → the roles its value is used in.
type VarRoles = BTreeMap<String, BTreeSet<Role>>;

/// The override CSS for each scope, in the same order; scope 0 is the document.
pub fn build(scopes: &[Scope]) -> Vec<String> {
    build_with_roles(scopes).0
}

/// The page's sheets are parsed twice, one top-level rule at a time (for the custom properties'
/// roles, then for the overrides), never held parsed whole: the layer's wasm memory keeps its
/// peak for good, and a 1.4 MB sheet parses to several MB.
fn build_scopes(scopes: &[Scope]) -> (Vec<String>, Roles) {
    let inline: Vec<Vec<(&str, Vec<Decl>)>> = scopes.iter().map(|s| s.inline_styles.iter().map(|v| (v.as_str(), css::parse_decls(v))).collect()).collect();
    let mut walk = RoleWalk::default();
    for sheet in scopes.iter().flat_map(|s| &s.sheets) {
        css::for_each_rule(&sheet.css, |rule| walk.rules(std::slice::from_ref(&rule)));
    }
    let (roles, chains) = walk.finish(&inline);
    let mut markers = Vec::with_capacity(scopes.len());
    let css = scopes
        .iter()
        .enumerate()
        .map(|(i, scope)| {
            let mut out = String::new();
            if i == 0 {
                out.push_str(&base_rules());
            }
            for sheet in &scope.sheets {
                emit_sheet_text(&sheet.css, &sheet.media, &roles, &mut out);
            }
            markers.push(emit_inline(&inline[i], &roles, &|_| false, &mut out));
            emit_attrs(&scope.attrs, &mut out);
            emit_scheme_sources(&scope.scheme_sources, &mut out);
            out
        })
        .collect();
    (css, Roles { roles, chains, markers })
}

/// Each inline style value and the marker its element carries in `data-dusk-i` ("" when the
/// value sets no colour). Every `[style="…"]` rule was matched against every element with a
/// `style` attribute, and a page adding values (a width per card) added one rule per element;
/// a marker is named by the mapped declarations, so values that differ only in what the theme
/// leaves alone share one rule, and only the elements that carry a marker are matched.
pub type Markers = Vec<(String, String)>;

/// The marker for a rule body (`{…}`): a 64-bit FNV-1a of it, so every build names the same
/// colours alike and a marker set once stays right across rebuilds.
fn marker_name(body: &str) -> String {
    let hash = body.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

/// The inline styles' rules, one per marker not yet written (`has_rule`: already in the sheet).
fn emit_inline(inline: &[(&str, Vec<Decl>)], roles: &VarRoles, has_rule: &dyn Fn(&str) -> bool, out: &mut String) -> Markers {
    let mut written = BTreeSet::new();
    inline
        .iter()
        .map(|(text, decls)| {
            let mut body = String::new();
            emit_block("", decls, roles, true, false, &mut body);
            if body.is_empty() {
                return (text.to_string(), String::new());
            }
            let marker = marker_name(&body);
            if !has_rule(&marker) && written.insert(marker.clone()) {
                out.push_str("[data-dusk-i=\"");
                out.push_str(&marker);
                out.push_str("\"]");
                out.push_str(&body);
            }
            (text.to_string(), marker)
        })
        .collect()
}

/// Page-wide defaults, at zero specificity so every page rule still wins. An SVG icon that relies
/// on the default black fill would vanish on a dark background, so it follows the text colour;
/// the content script marks which default-fill SVGs are icon-sized. A `<table border>` grid is
/// drawn in the text colour (its cells inherit the table's): it gets the UA's gray table border
/// instead, dark enough that the lit side of its inset shading stays below half luminance.
fn base_rules() -> String {
    format!(
        ":root{{color-scheme:dark!important}}html{{background-color:{bg};color:{fg}}}\
         :where(a:link){{color:{link}}}:where(a:visited){{color:{visited}}}\
         :where(mark){{background-color:{mark};color:{fg}}}\
         :where(table[border]){{border-color:{grid}}}\
         :where(svg[data-dusk-icon]:not([fill])){{fill:currentColor}}",
        bg = base_bg().to_css(),
        fg = base_fg().to_css(),
        link = map(Rgba::rgb(0, 0, 238), Role::Fg).to_css(),
        visited = map(Rgba::rgb(85, 26, 139), Role::Fg).to_css(),
        mark = map(Rgba::rgb(255, 255, 0), Role::Bg).to_css(),
        grid = map(Rgba::rgb(128, 128, 128), Role::Border).to_css(),
    )
}

/// The custom properties' roles and `var()` chains met so far, rule by rule (every custom
/// property's role from where it is used, following `var()` chains: `--a: var(--b)` as (a, b)).
#[derive(Default)]
struct RoleWalk {
    roles: VarRoles,
    chains: Vec<(String, String)>,
}

impl RoleWalk {
    fn decl(&mut self, d: &Decl) {
        if d.name.starts_with("--") {
            for r in var_refs(&d.value) {
                self.chains.push((d.name.clone(), r.to_string()));
            }
        } else if let Some(role) = role_of(&d.name) {
            for r in var_refs(&d.value) {
                self.roles.entry(r.to_string()).or_default().insert(role);
            }
        }
    }

    fn rules(&mut self, rules: &[Rule]) {
        for r in rules {
            r.decls.iter().for_each(|d| self.decl(d));
            self.rules(&r.children);
        }
    }

    fn finish(mut self, inline: &[Vec<(&str, Vec<Decl>)>]) -> (VarRoles, Vec<(String, String)>) {
        inline.iter().flatten().flat_map(|(_, d)| d).for_each(|d| self.decl(d));
        follow_chains(&mut self.roles, &self.chains);
        (self.roles, self.chains)
    }
}

/// `--a: var(--b)` hands --a's roles to --b; a few passes cover realistic chain depths.
fn follow_chains(roles: &mut VarRoles, chains: &[(String, String)]) {
    for _ in 0..6 {
        let mut grew = false;
        for (from, to) in chains {
            let Some(from_roles) = roles.get(from).cloned() else { continue };
            let entry = roles.entry(to.clone()).or_default();
            let before = entry.len();
            entry.extend(from_roles);
            grew |= entry.len() != before;
        }
        if !grew {
            break;
        }
    }
}

/// `emit_sheet` of a sheet's text, parsed one top-level rule at a time.
fn emit_sheet_text(css: &str, media: &str, roles: &VarRoles, out: &mut String) {
    let media = media.trim();
    if media.is_empty() || media.eq_ignore_ascii_case("all") {
        css::for_each_rule(css, |rule| emit_rules(std::slice::from_ref(&rule), roles, false, out));
        return;
    }
    let (query, dark) = rewrite_media(media);
    let mut inner = String::new();
    css::for_each_rule(css, |rule| emit_rules(std::slice::from_ref(&rule), roles, dark, &mut inner));
    wrap(&format!("@media {query}"), &inner, out);
}

/// Emits overrides for `rules`; inside a site's own dark-scheme block every declaration is kept.
fn emit_rules(rules: &[Rule], roles: &VarRoles, in_dark: bool, out: &mut String) {
    for rule in rules {
        if !rule.is_at_rule() {
            emit_block(&rule.prelude, &rule.decls, roles, false, in_dark, out);
            if !rule.children.is_empty() {
                // Nested style rules: mirror the nesting so `&` keeps its meaning.
                let mut inner = String::new();
                emit_rules(&rule.children, roles, in_dark, &mut inner);
                wrap(&rule.prelude, &inner, out);
            }
            continue;
        }
        match rule.at_name().as_str() {
            "media" => {
                let (query, dark) = rewrite_media(rule.prelude["@media".len()..].trim());
                let mut inner = String::new();
                emit_rules(&rule.children, roles, in_dark || dark, &mut inner);
                emit_block("&", &rule.decls, roles, false, in_dark || dark, &mut inner);
                wrap(&format!("@media {query}"), &inner, out);
            }
            "supports" | "layer" | "container" | "scope" | "document" | "-moz-document" | "starting-style" => {
                let mut inner = String::new();
                emit_rules(&rule.children, roles, in_dark, &mut inner);
                wrap(&rule.prelude, &inner, out);
            }
            // Keyframes, font faces, @page, @property and the like carry no themable colours.
            _ => {}
        }
    }
}

/// Writes `selector{…}` with the mapped declarations, if any. Inside the site's own dark-scheme
/// rules (`keep_all`) every declaration is the site's design and goes on as written: a custom
/// property's twins take its value unmapped, so usages elsewhere get the site's dark palette.
fn emit_block(selector: &str, decls: &[Decl], roles: &VarRoles, force_important: bool, keep_all: bool, out: &mut String) {
    let mut body = String::new();
    for d in decls {
        let important = d.important || force_important;
        if keep_all {
            if paints_nothing(selector, d) {
                continue;
            }
            // Only colours, as written: mirrored after the page's sheets, any other declaration
            // (furo's pygments `line-height: 125%`) would beat the page's own later rules and move
            // boxes. Where the site's design is shown whole, its own sheets apply it in place.
            match colour_longhands(&d.name, &d.value) {
                Some(parts) => parts.iter().for_each(|(name, value)| push_decl(&mut body, name, value, important)),
                None if role_of(&d.name).is_some() => push_decl(&mut body, &d.name, &d.value, important),
                None => {}
            }
            for role in roles.get(&d.name).into_iter().flatten() {
                push_decl(&mut body, &twin(&d.name, *role), &d.value, important);
            }
            if let Some(raw) = raw_paint(&d.name) {
                push_decl(&mut body, raw, &d.value, important);
            }
            continue;
        }
        if d.name.starts_with("--") {
            for role in roles.get(&d.name).into_iter().flatten() {
                if let Some(v) = rewrite(&d.value, *role) {
                    push_decl(&mut body, &twin(&d.name, *role), &v, important);
                }
            }
            continue;
        }
        if let Some(parts) = colour_longhands(&d.name, &d.value) {
            for (name, value) in parts {
                if let Some(v) = role_of(&name).and_then(|r| rewrite(&value, r)) {
                    push_decl(&mut body, &name, &v, important);
                }
            }
            continue;
        }
        if let Some(raw) = raw_paint(&d.name) {
            // The page's own paint beside the mapped one: the content script sizes shapes by it.
            push_decl(&mut body, raw, &d.value, important);
        }
        if let Some(v) = role_of(&d.name).and_then(|r| rewrite(&d.value, r)) {
            push_decl(&mut body, &d.name, &v, important);
        }
    }
    if !body.is_empty() {
        out.push_str(selector);
        out.push('{');
        out.push_str(&body);
        out.push('}');
    }
}

fn push_decl(body: &mut String, name: &str, value: &str, important: bool) {
    body.push_str(name);
    body.push(':');
    body.push_str(value);
    if important {
        body.push_str("!important");
    }
    body.push(';');
}

/// What a build knew of the page: the roles each custom property is used in and the `var()`
/// chains between them (an addition that changes neither can be built alone), and each scope's
/// inline style markers, which the page layer puts on the elements.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roles {
    pub(crate) roles: VarRoles,
    pub(crate) chains: Vec<(String, String)>,
    pub markers: Vec<Markers>,
}

/// `build`, and the custom properties' roles and inline style markers it found.
pub fn build_with_roles(scopes: &[Scope]) -> (Vec<String>, Roles) {
    build_scopes(scopes)
}

#[cfg(test)]
mod tests;
