//! Chat with the page(s): two passes. Pass 1 streams an answer from the page text with no tools;
//! pass 2 binds screenshot, scroll and refresh_page_state only when the answer needs them.

pub mod agent;
pub mod budget;
pub mod host;
pub mod markdown;
pub mod mention;
pub mod prompt;
pub mod session;
pub mod tools;

pub use agent::{answer, replay, resume, ChatRun, ChatSink};
pub use host::{ChatBrowser, ChatHost};
pub use session::{ChatEntry, ChatSession, PageContext, PendingQuestion, TabInfo};
