//! Dusk's own pages share one token sheet (extension/tokens.css). Every text colour meets WCAG
//! AA (4.5:1) on every background it is drawn on, and control borders and the focus ring meet
//! 3:1, in the light and the dark scheme. Computed from the sheet itself, not from a table.

use dusk_core::page::color::{contrast_ratio, parse_color, Rgba};
use std::collections::BTreeMap;

const SHEET: &str = include_str!("../../../extension/tokens.css");

/// The `--name: #hex` colours of the block that starts at `from` (its first `}` ends it).
fn colours(block: &str) -> BTreeMap<String, Rgba> {
    let mut out = BTreeMap::new();
    for decl in block.split([';', '{']) {
        let Some((name, value)) = decl.trim().split_once(':') else { continue };
        let (name, value) = (name.trim(), value.trim());
        if let (Some(name), true) = (name.strip_prefix("--"), value.starts_with('#')) {
            out.insert(name.to_string(), parse_color(value).unwrap_or_else(|| panic!("--{name}: {value} is not a colour")));
        }
    }
    out
}

fn schemes() -> [(&'static str, BTreeMap<String, Rgba>); 2] {
    let light_start = SHEET.find(":root {").expect("a :root block");
    let light_end = light_start + SHEET[light_start..].find('}').expect("its end");
    let dark_start = SHEET.find("prefers-color-scheme: dark").expect("a dark block");
    let dark_body = &SHEET[dark_start..];
    let dark_root = dark_body.find(":root {").expect("the dark :root");
    let dark_end = dark_root + dark_body[dark_root..].find('}').expect("its end");
    let light = colours(&SHEET[light_start..light_end]);
    let mut dark = light.clone();
    dark.extend(colours(&dark_body[dark_root..dark_end]));
    [("light", light), ("dark", dark)]
}

/// Text drawn on a background: every text colour on every surface, plus each "on-" pair.
const TEXT: [&str; 5] = ["text", "text-2", "primary", "danger", "success"];
const BACKGROUNDS: [&str; 4] = ["bg", "surface", "surface-2", "primary-container"];
const ON_PAIRS: [(&str, &str); 5] = [
    ("on-primary", "primary"),
    ("on-primary-container", "primary-container"),
    ("on-warning", "warning-container"),
    ("text", "warning-container"),
    ("text-2", "warning-container"),
];
/// Control borders and the focus ring against what they sit on.
const BORDERS: [(&str, &str); 6] =
    [("outline", "bg"), ("outline", "surface"), ("outline", "surface-2"), ("primary", "bg"), ("primary", "surface"), ("primary", "surface-2")];

#[test]
fn every_text_pair_meets_aa_and_every_border_3_to_1_in_both_schemes() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (scheme, c) in schemes() {
        let get = |n: &str| c.get(n).unwrap_or_else(|| panic!("{scheme}: no --{n} in tokens.css"));
        let text_pairs = TEXT.iter().flat_map(|t| BACKGROUNDS.iter().map(move |b| (*t, *b))).chain(ON_PAIRS);
        for (fg, bg, min) in text_pairs.map(|(f, b)| (f, b, 4.5)).chain(BORDERS.iter().map(|(f, b)| (*f, *b, 3.0))) {
            let ratio = contrast_ratio(get(fg), get(bg));
            checked += 1;
            if ratio < min {
                failures.push(format!("{scheme}: --{fg} on --{bg} is {ratio:.2}:1, under {min}:1"));
            }
        }
    }
    assert_eq!(checked, 2 * (TEXT.len() * BACKGROUNDS.len() + ON_PAIRS.len() + BORDERS.len()));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn both_schemes_define_the_same_colours() {
    let [(_, light), (_, dark)] = schemes();
    let own_dark = colours(&SHEET[SHEET.find("prefers-color-scheme: dark").expect("dark")..]);
    for name in light.keys() {
        assert!(own_dark.contains_key(name), "--{name} has no dark value");
    }
    assert_eq!(light.len(), dark.len());
}
