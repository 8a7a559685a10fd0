//! Reading RPCs: what is on the page, in layers from a summary down to one element's styles.

pub mod clickable;
pub mod details;
pub mod elements;
pub mod inspect;
pub mod palette;
pub mod query;
pub mod summary;
