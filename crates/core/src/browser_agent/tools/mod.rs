//! The 19 actions, one module each. Each argument type derives the schema the model
//! sees; every action that changes the page reports what changed (`context::Changes`).

pub mod action;
pub mod click;
pub mod drag_drop;
pub mod execute_js;
pub mod get_element_details;
pub mod get_elements;
pub mod history;
pub mod hover;
pub mod navigate;
pub mod press_key;
pub mod read_text;
pub mod screenshot;
pub mod scroll;
pub mod select;
pub mod switch_tab;
pub mod type_text;
pub mod upload_file;
pub mod wait;

use super::browser::Browser;
use super::session::BrowserSession;
use crate::agent::Registry;

/// All 19, in the order the model sees them: reading first, then acting, then tabs and script.
pub fn registry<'h, B: Browser>() -> Registry<BrowserSession<'h, B>> {
    Registry::new()
        .with(get_elements::GetElements)
        .with(get_element_details::GetElementDetails)
        .with(read_text::ReadText)
        .with(click::Click)
        .with(type_text::TypeText)
        .with(select::Select)
        .with(press_key::PressKey)
        .with(hover::Hover)
        .with(scroll::Scroll)
        .with(drag_drop::DragDrop)
        .with(navigate::Navigate)
        .with(history::GoBack)
        .with(history::GoForward)
        .with(history::Refresh)
        .with(switch_tab::SwitchTab)
        .with(wait::Wait)
        .with(screenshot::Screenshot)
        .with(upload_file::UploadFile)
        .with(execute_js::ExecuteJs)
}
