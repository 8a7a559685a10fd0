#[cfg(feature = "panel")]
pub mod options;
pub mod popup;
#[cfg(feature = "panel")]
pub mod sidepanel;
pub mod welcome;
