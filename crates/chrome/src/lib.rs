//! Bindings to the `chrome.*` extension APIs, one module per namespace. No logic.
//! Promise-returning APIs are exposed as `async fn` returning `Result<JsValue, JsValue>`.

pub mod action;
pub mod context_menus;
pub mod debugger;
pub mod declarative_net_request;
pub mod i18n;
pub mod message;
pub mod runtime;
pub mod scripting;
pub mod side_panel;
pub mod storage;
pub mod tabs;
pub mod url;
pub mod user_scripts;
pub mod windows;
