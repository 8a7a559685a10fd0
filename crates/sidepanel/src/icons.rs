//! Dusk's one icon set: small 24×24 outline paths drawn with `currentColor`, inline, so they
//! follow the text colour in both schemes and under forced colours.

use crate::dom;
use wasm_bindgen::prelude::*;
use web_sys::Element;

const SVG: &str = "http://www.w3.org/2000/svg";

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Icon {
    New,
    History,
    More,
    Send,
    Stop,
    Back,
    Export,
    Settings,
    Help,
    Click,
    Type,
    Open,
    Scroll,
    Look,
    Shield,
    Spark,
    Moon,
    Panel,
    Menu,
    Palette,
    Chat,
    Info,
    Data,
    Agent,
    Wait,
    Copy,
}

fn path(icon: Icon) -> &'static str {
    match icon {
        Icon::New => "M4 20h4L19 9l-4-4L4 16zM14 6l4 4",
        Icon::History => "M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 2",
        Icon::More => "M5 12h.01M12 12h.01M19 12h.01",
        Icon::Send => "M12 19V5M5 12l7-7 7 7",
        Icon::Stop => "M7 7h10v10H7z",
        Icon::Back => "M15 18l-6-6 6-6",
        Icon::Export => "M12 4v11M7 10l5 5 5-5M5 20h14",
        Icon::Settings => "M4 7h9M17 7h3M4 17h3M11 17h9M15 5v4M9 15v4",
        Icon::Help => "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01",
        Icon::Click => "M6 3l13 7-6 2-2 6z",
        Icon::Type => "M3 7h18v10H3zM7 11h.01M11 11h.01M15 11h.01M8 14h8",
        Icon::Open => "M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5",
        Icon::Scroll => "M12 4v16M8 16l4 4 4-4M8 8l4-4 4 4",
        Icon::Look => "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
        Icon::Shield => "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z",
        Icon::Spark => "M12 3v5M12 16v5M3 12h5M16 12h5M6 6l3 3M15 15l3 3M6 18l3-3M15 9l3-3",
        Icon::Moon => "M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z",
        Icon::Panel => "M4 5h16v14H4zM14 5v14",
        Icon::Menu => "M4 7h16M4 12h16M4 17h16",
        Icon::Palette => {
            "M12 3a9 9 0 1 0 0 18c1 0 1.5-.8 1.5-1.5 0-1.2-1-1.3-1-2.5 0-.8.7-1.5 1.5-1.5H16a5 5 0 0 0 5-5c0-4.2-4-7.5-9-7.5zM7.5 11h.01M10 7.5h.01M15 7.5h.01"
        }
        Icon::Chat => "M4 5h16v11H9l-5 4z",
        Icon::Info => "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 11v6M12 7.5h.01",
        Icon::Data => "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
        Icon::Agent => "M5 8h14v11H5zM12 4v4M9 13h.01M15 13h.01M9 16h6",
        Icon::Wait => "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2",
        Icon::Copy => "M9 9h11v11H9zM15 9V4H4v11h5",
    }
}

/// Appends the icon to `parent`, hidden from screen readers (the control carries the name).
pub fn append(parent: &Element, icon: Icon) -> Result<Element, JsValue> {
    let document = dom::document()?;
    let svg = document.create_element_ns(Some(SVG), "svg")?;
    svg.set_attribute("viewBox", "0 0 24 24")?;
    svg.set_attribute("class", "icon")?;
    svg.set_attribute("aria-hidden", "true")?;
    svg.set_attribute("focusable", "false")?;
    let p = document.create_element_ns(Some(SVG), "path")?;
    p.set_attribute("d", path(icon))?;
    if icon == Icon::Stop {
        p.set_attribute("fill", "currentColor")?;
    }
    if icon == Icon::More {
        p.set_attribute("stroke-width", "3")?;
    }
    svg.append_child(&p)?;
    parent.append_child(&svg)?;
    Ok(svg)
}

/// Replaces the icon inside `parent` (e.g. Send ↔ Stop).
pub fn replace(parent: &Element, icon: Icon) -> Result<(), JsValue> {
    if let Some(old) = parent.query_selector("svg.icon")? {
        old.remove();
    }
    append(parent, icon).map(|_| ())
}

/// A 32 px round icon button with its name as `aria-label` and tooltip.
pub fn button(parent: &Element, id: &str, icon: Icon, label: &str) -> Result<Element, JsValue> {
    let b = dom::append(parent, "button", "icon-button", "")?;
    b.set_id(id);
    b.set_attribute("type", "button")?;
    b.set_attribute("aria-label", label)?;
    b.set_attribute("data-tip", label)?;
    append(&b, icon)?;
    Ok(b)
}
