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

/// Text whose contrast fails AA, as the guard found it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LowContrast {
    pub selector: String,
    pub ratio: f64,
    pub color: String,
    pub background: String,
}

/// The guard's measurement of the page as the user sees it, under the current theme.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ThemeQuality {
    /// Visible text elements measured.
    pub text_elements: u32,
    /// Share of them meeting WCAG AA on their composited background (0..1).
    pub aa_share: f64,
    /// Text visible at the baseline that is now hidden, or drawn in (nearly) its background colour.
    pub hidden_text: u32,
    /// Elements whose box moved or resized by more than 1 px since the baseline.
    pub moved: u32,
    /// Text hidden at the baseline that shows now (a customisation that reveals something).
    #[serde(default)]
    pub shown_text: u32,
    #[serde(default)]
    pub shown: Vec<String>,
    /// The worst few, by contrast.
    pub worst: Vec<LowContrast>,
    pub hidden: Vec<String>,
    pub moved_examples: Vec<String>,
    /// Baseline measures only: the start of the instant theme's document CSS, for the prompt.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instant_css: String,
}
