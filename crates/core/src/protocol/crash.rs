//! What a caller is told when the page layer's engine crashed answering a request (a WebAssembly
//! trap, or an exception thrown through it): what the layer was doing, why, and that it restarted.

use super::actions::{Target, TargetKind};
use super::{ContentRequest, ContentResponse};

/// "element 12", "`#q`", "the point (10, 20)", or "the focused element".
fn target_name(target: &Target) -> String {
    match target.kind() {
        Ok(TargetKind::Index(i)) => format!("element {i}"),
        Ok(TargetKind::Selector(s)) => format!("`{s}`"),
        Ok(TargetKind::Point(x, y)) => format!("the point ({x}, {y})"),
        _ => "the focused element".to_string(),
    }
}

fn elements(indices: &[u32]) -> String {
    match indices {
        [one] => format!("element {one}"),
        many => format!("elements {}", many.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")),
    }
}

impl ContentRequest {
    /// What the page layer does for this request, as "reading element 12".
    pub fn doing(&self) -> String {
        use ContentRequest as R;
        match self {
            R::GetElements { .. } => "listing the page's elements".into(),
            R::GetElementDetails { indices } => format!("reading {}", elements(indices)),
            R::Inspect { selector, .. } => format!("inspecting `{selector}`"),
            R::CountElements { selector } => format!("counting `{selector}`"),
            R::QueryElements { .. } => "searching the page's elements".into(),
            R::GetColorPalette => "reading the page's colours".into(),
            R::ClickListeners { .. } | R::ListenerChanges => "marking the page's click listeners".into(),
            R::Click { target, .. } => format!("clicking {}", target_name(target)),
            R::TypeText { target, .. } => format!("typing into {}", target_name(target)),
            R::Select { target, .. } => format!("choosing an option of {}", target_name(target)),
            R::Hover { target } => format!("hovering over {}", target_name(target)),
            R::Scroll { target, .. } => format!("scrolling {}", target_name(target)),
            R::PressKey { target, key, .. } => format!("pressing {key} on {}", target_name(target)),
            R::DragDrop { .. } => "dragging".into(),
            R::SetFiles { index, .. } => format!("setting the files of element {index}"),
            R::ScrollTo { .. } => "scrolling the page".into(),
            R::Highlight { index, .. } => format!("highlighting element {index}"),
            R::Mask { .. } | R::Heartbeat { .. } | R::Unmask => "covering the page".into(),
            R::DetectDarkMode | R::ApplyCss { .. } | R::RemoveCss { .. } | R::PreviewSiteCss { .. } => "styling the page".into(),
            R::Trap => "on purpose (a test's forced trap)".into(),
            other => format!("answering {}", super::tagged::wire_type(other)),
        }
    }

    /// The error a caller gets after the layer crashed on this request with `error`, and was
    /// loaded afresh (`restarted`) or not: a fresh layer has no element numbers yet.
    pub fn crashed(&self, error: &str, restarted: Result<(), String>) -> ContentResponse {
        let then = match restarted {
            Ok(()) => "it was restarted, so list the elements again: their numbers start afresh".to_string(),
            Err(e) => format!("it could not be restarted ({e})"),
        };
        ContentResponse::Error { message: format!("the page layer crashed {} ({error}); {then}", self.doing()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_reading_an_element_names_it_the_trap_and_the_restart() {
        let r = ContentRequest::GetElementDetails { indices: vec![12] };
        assert_eq!(
            r.crashed("memory access out of bounds", Ok(())),
            ContentResponse::Error {
                message: "the page layer crashed reading element 12 (memory access out of bounds); it was restarted, so list the elements again: their numbers start afresh".into()
            }
        );
    }

    #[test]
    fn a_crash_names_each_element_and_the_action_target() {
        assert_eq!(ContentRequest::GetElementDetails { indices: vec![3, 4] }.doing(), "reading elements 3, 4");
        let typed = ContentRequest::TypeText { target: Target { selector: Some("#q".into()), ..Target::default() }, text: "x".into(), clear: false, at: None };
        assert_eq!(typed.doing(), "typing into `#q`");
        assert_eq!(ContentRequest::Click { target: Target::index(7), modifiers: Default::default() }.doing(), "clicking element 7");
    }

    #[test]
    fn a_layer_that_could_not_be_restarted_says_why() {
        let ContentResponse::Error { message } = ContentRequest::Trap.crashed("unreachable", Err("the tab was closed".into())) else { panic!() };
        assert_eq!(message, "the page layer crashed on purpose (a test's forced trap) (unreachable); it could not be restarted (the tab was closed)");
    }

    #[test]
    fn the_layers_crash_reply_parses() {
        let r: ContentResponse = serde_json::from_str(r#"{"type":"layer_crashed","layer":"page","error":"memory access out of bounds"}"#).unwrap();
        assert_eq!(r, ContentResponse::LayerCrashed { layer: crate::protocol::layer::Layer::Page, error: "memory access out of bounds".into() });
    }
}
