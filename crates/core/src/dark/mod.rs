//! The instant dark-mode engine: colour maths, role mapping, and the override stylesheet.

pub mod added_sheets;
pub mod adjust;
pub mod band;
pub mod color;
pub mod css;
mod css_text;
pub mod detect;
pub mod foreign;
pub mod freeze;
pub mod growth;
pub mod images;
mod inert;
pub mod map;
mod markup;
mod named;
pub mod own;
pub mod shapes;
pub mod shorthand;
pub mod site;
pub mod theme;
pub mod translucent;
pub mod value;

pub use theme::{build, Attr, SchemeSource, Scope, Sheet};
