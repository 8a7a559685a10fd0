pub mod options;
pub mod popup;
pub mod sidepanel;
pub mod welcome;
