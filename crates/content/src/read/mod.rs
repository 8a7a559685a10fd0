//! Reading RPCs: what is on the page, from its elements down to one element's styles (the
//! summary needs no layer: core page::summary, from the always-on script's page_facts).

pub mod clickable;
pub mod details;
pub mod elements;
pub mod faces;
pub mod hidden;
pub mod inspect;
pub mod palette;
pub mod query;
