#[cfg(feature = "panel")]
pub mod options;
pub mod popup;
#[cfg(feature = "panel")]
pub mod sidepanel;
#[cfg(feature = "panel")]
pub mod welcome;
