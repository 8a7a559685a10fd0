//! The LLM dark-mode agent. It refines the instant engine's theme, never replaces it:
//! Quick is one model call, Thorough a run on the agent runtime with six tools. Every version the
//! model applies is measured on the page, and only versions no worse than Instant are kept.

pub mod contrast;
pub mod guard;
pub mod prompt;
pub mod quick;
pub mod sanitize;
pub mod session;
pub mod thorough;
pub mod tools;
pub mod versions;
