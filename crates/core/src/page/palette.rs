//! Groups sampled colours into backgrounds, text, accents and borders, merging near-identical shades.

use super::color::Rgba;
use crate::protocol::page::{Palette, PaletteColor};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Background,
    Text,
    Accent,
    Border,
}

/// Shades closer than this in OKLab count as one colour.
const MERGE_DISTANCE: f64 = 0.02;
const MAX_PER_GROUP: usize = 12;

struct Cluster {
    color: Rgba,
    members: HashMap<String, u32>,
    count: u32,
    weight: f64,
}

/// Collects (role, colour string, painted area) samples and builds the palette.
#[derive(Default)]
pub struct PaletteBuilder {
    parsed: HashMap<String, Option<Rgba>>,
    groups: [Vec<Cluster>; 4],
    sampled: u32,
}

impl PaletteBuilder {
    pub fn element_sampled(&mut self) {
        self.sampled += 1;
    }

    /// Adds one colour; transparent and unparseable colours are ignored.
    pub fn add(&mut self, role: Role, css: &str, area: f64) {
        let color = *self.parsed.entry(css.to_string()).or_insert_with(|| Rgba::parse(css));
        let Some(color) = color.filter(|c| c.a > 0.01) else { return };
        let group = &mut self.groups[role as usize];
        let weight = if area.is_finite() { area.max(1.0) } else { 1.0 };
        let cluster = match group.iter_mut().position(|c| c.color.distance(&color) < MERGE_DISTANCE) {
            Some(i) => &mut group[i],
            None => {
                group.push(Cluster { color, members: HashMap::new(), count: 0, weight: 0.0 });
                let last = group.len() - 1;
                &mut group[last]
            }
        };
        cluster.count += 1;
        cluster.weight += weight;
        *cluster.members.entry(css.to_string()).or_default() += 1;
    }

    pub fn finish(self) -> Palette {
        let [backgrounds, text, accents, borders] = self.groups.map(finish_group);
        Palette { backgrounds, text, accents, borders, sampled: self.sampled }
    }
}

fn finish_group(group: Vec<Cluster>) -> Vec<PaletteColor> {
    let total: f64 = group.iter().map(|c| c.weight).sum();
    super::rank::best_first(group, |c| (c.weight, 0.0))
        .into_iter()
        .take(MAX_PER_GROUP)
        .map(|c| {
            let css = c.members.into_iter().max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0))).map(|m| m.0).unwrap_or_default();
            PaletteColor { hex: c.color.to_hex(), css, count: c.count, weight: if total > 0.0 { (c.weight / total * 1000.0).round() / 1000.0 } else { 0.0 } }
        })
        .collect()
}

/// A colour reads as an accent when it is clearly saturated.
pub fn is_accent(css: &str) -> bool {
    Rgba::parse(css).is_some_and(|c| c.a > 0.01 && c.chroma() > 0.06)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_merges_and_weights() {
        let mut b = PaletteBuilder::default();
        b.add(Role::Background, "rgb(255, 255, 255)", 800.0);
        b.add(Role::Background, "rgb(255, 255, 255)", 100.0);
        b.add(Role::Background, "color(srgb 1 1 1)", 100.0);
        b.add(Role::Background, "oklch(0.3 0.1 250)", 1000.0);
        b.add(Role::Background, "rgba(0, 0, 0, 0)", 5000.0);
        b.add(Role::Text, "lab(20 0 0)", 10.0);
        b.add(Role::Border, "nonsense", 10.0);
        let p = b.finish();
        assert_eq!(p.backgrounds.len(), 2, "{:?}", p.backgrounds);
        let white = p.backgrounds.iter().find(|c| c.hex == "#ffffff").expect("white merged");
        assert_eq!(white.count, 3);
        assert_eq!(white.css, "rgb(255, 255, 255)");
        assert!((white.weight - 0.5).abs() < 1e-9);
        assert_eq!(p.text.len(), 1);
        assert!(p.borders.is_empty());
    }

    #[test]
    fn accents_are_saturated() {
        assert!(is_accent("rgb(0, 102, 204)"));
        assert!(is_accent("color(display-p3 0.9 0.2 0.1)"));
        assert!(!is_accent("rgb(120, 120, 120)"));
        assert!(!is_accent("rgba(0, 102, 204, 0)"));
    }
}
