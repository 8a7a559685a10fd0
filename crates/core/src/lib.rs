//! Dusk's logic. Pure Rust: no wasm-bindgen, tested natively with `cargo test`.

pub mod agent;
pub mod backup;
pub mod browser_agent;
pub mod chat;
pub mod commands;
pub mod customize;
pub mod dark;
pub mod dark_agent;
pub mod error;
pub mod history;
pub mod llm;
pub mod page;
pub mod protocol;
pub mod settings;
pub mod storage_use;
pub mod toolbar;

pub use error::CoreError;

/// The extension version, shared by every crate so `ping` and the UI agree.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
