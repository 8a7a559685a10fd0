//! Types of the action RPCs: what to act on, and how the result is reported.

use serde::{Deserialize, Serialize};

/// What an action acts on: exactly one of an index from `get_elements`, a CSS selector, or a point.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Target {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
}

/// A target after checking that it names exactly one thing.
#[derive(Debug, Clone, PartialEq)]
pub enum TargetKind {
    Index(u32),
    Selector(String),
    Point(f64, f64),
    /// No target given: the action applies to the focused element or the page.
    None,
}

impl Target {
    pub fn index(index: u32) -> Target {
        Target { index: Some(index), ..Target::default() }
    }

    pub fn kind(&self) -> Result<TargetKind, String> {
        let given = [self.index.is_some(), self.selector.is_some(), self.x.is_some() || self.y.is_some()];
        if given.iter().filter(|g| **g).count() > 1 {
            return Err("give only one of index, selector or x/y".into());
        }
        Ok(match (self.index, &self.selector, self.x, self.y) {
            (Some(i), _, _, _) => TargetKind::Index(i),
            (_, Some(s), _, _) if s.trim().is_empty() => return Err("the selector is empty".into()),
            (_, Some(s), _, _) => TargetKind::Selector(s.clone()),
            (_, _, Some(x), Some(y)) if x.is_finite() && y.is_finite() => TargetKind::Point(x, y),
            (_, _, Some(_), _) | (_, _, _, Some(_)) => return Err("a point needs both x and y as numbers".into()),
            _ => TargetKind::None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// Modifier keys held during a key press or click.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Modifiers {
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
    pub meta: bool,
}

/// Why an action could not be done, so an agent can decide what to try next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailReason {
    NotFound,
    Stale,
    Hidden,
    Disabled,
    Covered,
    NotEditable,
    NoOption,
    BadTarget,
    AtEdge,
    /// The page holds something other than what was asked (a rejected date, a clamped range).
    Rejected,
    /// Dusk doesn't do this; the message says what to use instead.
    Unsupported,
}

/// Where typed text goes instead of over (or after) the field's whole value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeAt {
    /// On a line of its own after the first line that reads this (else holds it).
    AfterLine(String),
    /// In place of the first occurrence of this text.
    Replace(String),
}

/// A file the user picked for an upload, carried to the page as base64.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilePayload {
    pub name: String,
    #[serde(default)]
    pub mime: String,
    pub base64: String,
}

/// Files above this size are refused before they reach the page (messages are JSON).
pub const MAX_UPLOAD_BYTES: usize = 5 * 1024 * 1024;

impl FilePayload {
    /// Decoded size in bytes.
    pub fn size(&self) -> usize {
        let b = self.base64.trim_end_matches('=');
        b.len() * 3 / 4
    }
}

/// The answer to every action: whether it worked and a sentence saying what happened or why not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionResult {
    pub success: bool,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<FailReason>,
}

impl ActionResult {
    pub fn ok(message: impl Into<String>) -> ActionResult {
        ActionResult { success: true, message: message.into(), reason: None }
    }
    pub fn fail(reason: FailReason, message: impl Into<String>) -> ActionResult {
        ActionResult { success: false, message: message.into(), reason: Some(reason) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_names_exactly_one_thing() {
        assert_eq!(Target::index(3).kind(), Ok(TargetKind::Index(3)));
        let point = Target { x: Some(1.0), y: Some(2.0), ..Target::default() };
        assert_eq!(point.kind(), Ok(TargetKind::Point(1.0, 2.0)));
        assert_eq!(Target::default().kind(), Ok(TargetKind::None));
        let both = Target { index: Some(1), selector: Some("a".into()), ..Target::default() };
        assert!(both.kind().is_err());
        let half = Target { x: Some(1.0), ..Target::default() };
        assert!(half.kind().is_err());
        let empty = Target { selector: Some(" ".into()), ..Target::default() };
        assert!(empty.kind().is_err());
    }
}
