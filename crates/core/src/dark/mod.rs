//! The instant dark-mode engine: colour maths, role mapping, and the override stylesheet.

pub mod color;
pub mod css;
pub mod detect;
pub mod foreign;
pub mod freeze;
mod inert;
pub mod map;
mod named;
pub mod shorthand;
pub mod site;
pub mod theme;
pub mod value;

pub use theme::{build, Attr, Scope, Sheet};
