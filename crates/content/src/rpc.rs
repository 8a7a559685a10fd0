//! Dispatches each ContentRequest to its module and wraps the answer in a ContentResponse.

use crate::actions::{self, Outcome};
use crate::dom::document;
use crate::{css, overlay, read};
use dusk_core::protocol::actions::ActionResult;
use dusk_core::protocol::{ContentRequest as Req, ContentResponse as Res};

fn err(message: impl Into<String>) -> Res {
    Res::Error { message: message.into() }
}

fn action(outcome: Outcome<ActionResult>) -> Res {
    Res::Action(outcome.unwrap_or_else(|failure| failure))
}

#[inline(never)]
pub fn handle(request: Req) -> Res {
    let request = match request.bounded() {
        Ok(r) => r,
        Err(e) => return err(e),
    };
    let doc = match document() {
        Ok(d) => d,
        Err(e) => return err(e),
    };
    // The agent's own hit-tests must see through its mask; the mask is restored right after.
    let is_action =
        matches!(request, Req::Click { .. } | Req::TypeText { .. } | Req::Select { .. } | Req::Hover { .. } | Req::DragDrop { .. } | Req::PressKey { .. });
    if is_action {
        overlay::suspend(true);
    }
    let response = match request {
        Req::Ping => Res::Pong {
            version: dusk_core::VERSION.to_string(),
            url: doc.location().and_then(|l| l.href().ok()).unwrap_or_default(),
            doc: crate::dom::window().ok().and_then(|w| w.performance()).map(|p| p.time_origin().to_string()).unwrap_or_default(),
            layers: vec![dusk_core::protocol::layer::Layer::Page],
        },
        Req::CountElements { selector } => match doc.query_selector_all(&selector) {
            Ok(list) => Res::ElementCount { selector, count: list.length() },
            Err(_) => err(format!("invalid selector: {selector}")),
        },
        Req::GetElements { filter, visible_only, limit, offset } => {
            let l = read::elements::get_elements(&doc, filter, visible_only, offset, limit);
            Res::Elements { elements: l.elements, total: l.total, truncated: l.truncated, left_out: l.left_out, hidden_text: l.hidden_text }
        }
        Req::ClickListeners { paths, add } => Res::ClickListeners { found: crate::listeners::set(&doc, &paths, add) },
        Req::ListenerChanges => Res::ListenerChanges { changes: crate::listeners::changes(&doc) },
        Req::GetElementDetails { indices } => {
            let (details, missing) = read::details::get_details(&indices);
            Res::ElementDetails { details, missing }
        }
        Req::Inspect { selector, limit } => match read::inspect::inspect(&doc, &selector, limit) {
            Ok((elements, total)) => Res::Inspected { elements, total },
            Err(e) => err(e),
        },
        Req::GetColorPalette => read::palette::get_palette(&doc).map_or_else(err, Res::ColorPalette),
        Req::QueryElements { description, limit } => {
            read::query::query_elements(&doc, &description, limit).map_or_else(err, |matches| Res::QueryResults { matches })
        }
        Req::TextSnapshot { .. } | Req::PageText { .. } => err("text_snapshot is made by the worker from the always-on script's page_text"),
        Req::ScreenText { .. } => err("screen_text is answered by the always-on script"),
        Req::PageSummary { .. } | Req::PageFacts { .. } => err("page_summary is made by the worker from the always-on script's page_facts"),
        Req::WaitQuiet { .. } => err("wait_quiet is answered by the always-on script"),
        Req::DetectDarkMode => css::detect_dark_mode().map_or_else(err, Res::DarkMode),
        Req::ApplyCss { css, id } => css::apply_css(&css, &id).map_or_else(err, Res::CssApplied),
        Req::RemoveCss { id } => Res::CssRemoved { removed: css::remove_css(&id), id },
        Req::PreviewSiteCss { css } => css::preview_site_css(&css).map_or_else(err, Res::CssApplied),
        Req::Click { target, modifiers } => action(actions::click::click(&doc, &target, modifiers)),
        Req::TypeText { target, text, clear, at } => action(actions::type_text::type_text(&doc, &target, &text, clear, at.as_ref())),
        Req::Select { target, value, text } => action(actions::select::select(&doc, &target, value.as_deref(), text.as_deref())),
        Req::Hover { target } => action(actions::hover::hover(&doc, &target)),
        Req::Scroll { target, direction, amount } => action(actions::scroll::scroll(&doc, &target, direction, amount)),
        Req::PressKey { target, key, modifiers } => action(actions::keys::press_key(&doc, &target, &key, modifiers)),
        Req::DragDrop { from, to } => action(actions::drag::drag_drop(&doc, from, to)),
        Req::SetFiles { index, files } => action(actions::upload::set_files(&doc, index, &files)),
        Req::ScrollTo { y } => action(actions::scroll::scroll_to(y)),
        Req::Highlight { index, duration_ms } => match crate::registry::lookup(index) {
            crate::registry::Lookup::Found(el) => match overlay::highlight(&el, index, duration_ms.unwrap_or(1500)) {
                Ok(()) => Res::Action(ActionResult::ok(format!("highlighted element {index}"))),
                Err(e) => err(e),
            },
            _ => action(actions::resolve(&doc, &dusk_core::protocol::actions::Target::index(index)).map(|_| ActionResult::ok(""))),
        },
        Req::Mask { label, ttl_ms } => match overlay::mask(label.as_deref(), ttl_ms.unwrap_or(overlay::DEFAULT_TTL_MS)) {
            Ok(ms) => Res::Mask { active: true, expires_in_ms: ms },
            Err(e) => err(e),
        },
        Req::Heartbeat { ttl_ms } => {
            let ms = overlay::heartbeat(ttl_ms.unwrap_or(overlay::DEFAULT_TTL_MS));
            Res::Mask { active: ms > 0, expires_in_ms: ms }
        }
        Req::Unmask => {
            overlay::unmask();
            Res::Mask { active: false, expires_in_ms: 0 }
        }
        Req::Trap => std::process::abort(),
    };
    if is_action {
        overlay::suspend(false);
    }
    response
}
