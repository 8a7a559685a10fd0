//! The dark agent's six tools, one module each; most wrap a content-script RPC.

pub mod apply_css;
pub mod check_contrast;
pub mod inspect;
pub mod palette;
pub mod query;
pub mod scroll_and_capture;

use super::session::{DarkPage, DarkSession};
use crate::agent::Registry;

/// All six, in the order the model sees them.
pub fn registry<'h, P: DarkPage>() -> Registry<DarkSession<'h, P>> {
    Registry::new()
        .with(inspect::Inspect)
        .with(palette::GetColorPalette)
        .with(query::QueryElements)
        .with(check_contrast::CheckContrast)
        .with(apply_css::ApplyCss)
        .with(scroll_and_capture::ScrollAndCapture)
}
