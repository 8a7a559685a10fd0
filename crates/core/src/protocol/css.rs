//! Types of the CSS RPCs: dark-mode detection and extension-owned style sheets.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DarkModeInfo {
    /// The page already looks dark.
    pub dark: bool,
    /// The effective page background as `#rrggbb`.
    pub background: String,
    pub text: String,
    /// WCAG relative luminance of the background, 0..1.
    pub background_luminance: f64,
    /// The root's computed `color-scheme`.
    pub color_scheme: String,
    /// Whether the browser reports `prefers-color-scheme: dark`.
    pub prefers_dark: bool,
}

/// A piece of the applied CSS the browser dropped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RejectedCss {
    /// The rule's or declaration's text as given.
    pub text: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CssApplied {
    pub id: String,
    /// Top-level rules the browser accepted.
    pub rules: u32,
    pub rejected: Vec<RejectedCss>,
}
