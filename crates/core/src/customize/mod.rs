//! Customize this site: an agent on the one loop that reads and saves a site's own
//! CSS and JS, previews CSS on the page under the guard, and saves only on the user's click.

pub mod diff;
pub mod guard;
pub mod prompt;
pub mod site;
pub mod tools;

pub use site::{SiteCustom, Version};

/// The customize agent's default turn limit.
pub const DEFAULT_TURNS: u32 = 10;

/// Where user scripts are off, what the user does to turn them on.
pub const ENABLE_USER_SCRIPTS: &str =
    "saved JS runs once user scripts are allowed for Dusk: open chrome://extensions, Dusk → Details, and switch on “Allow User Scripts”";
