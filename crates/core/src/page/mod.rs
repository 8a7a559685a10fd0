//! Pure logic behind the content script's DOM RPCs, tested natively.

pub mod case;
pub mod color;
pub mod cssparse;
pub mod elements;
pub mod grid;
pub mod href;
pub mod hue;
pub mod icons;
pub mod input_value;
pub mod keys;
pub mod listeners;
pub mod naming;
pub mod number;
pub mod outline;
pub mod palette;
pub mod query;
pub mod rank;
pub mod reader;
pub mod regions;
pub mod selector;
pub mod snapshot;
pub mod span;
pub mod summary;
pub mod text;
pub mod text_edit;
