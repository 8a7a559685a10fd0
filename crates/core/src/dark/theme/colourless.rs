//! Inline declarations the theme never maps. A busy page writes styles that differ from one
//! another only by them (a progress bar's `width`, a positioned card's `top`): the page layer
//! looks such a style up by its other declarations, and finds the marker of one it has seen.

/// Properties whose inline declarations give no rule: no colour role, no colour longhand, no
/// paint kept beside the mapped one. Geometry only; anything that may touch colour is left out.
pub const COLOURLESS: &[&str] = &[
    "width",
    "height",
    "min-width",
    "min-height",
    "max-width",
    "max-height",
    "top",
    "right",
    "bottom",
    "left",
    "inset",
    "margin",
    "margin-top",
    "margin-right",
    "margin-bottom",
    "margin-left",
    "padding",
    "padding-top",
    "padding-right",
    "padding-bottom",
    "padding-left",
    "transform",
    "translate",
    "rotate",
    "scale",
    "z-index",
    "order",
    "flex-basis",
    "flex-grow",
    "flex-shrink",
];

/// The list as the page layer takes it: names joined by commas.
pub fn colourless_names() -> String {
    COLOURLESS.join(",")
}
