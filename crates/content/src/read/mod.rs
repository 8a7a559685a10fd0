//! Reading RPCs: what is on the page, in layers from a summary down to one element's styles.

pub mod details;
pub mod elements;
pub mod inspect;
pub mod palette;
pub mod query;
pub mod clickable;
pub mod summary;
pub mod text;
