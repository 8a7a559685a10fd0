//! The browser-action agent: 18 actions on the agent runtime, a layered page context
//! (summary → indexed elements → details, and what changed after each action), dom / vision /
//! hybrid modes with set-of-marks screenshots, and safety rules the runtime's gate enforces.

pub mod browser;
pub mod card;
pub mod context;
pub mod effect;
pub mod marks;
pub mod mode;
pub mod prompt;
pub mod run;
pub mod safety;
pub mod script;
pub mod session;
pub mod tools;

pub use browser::{Browser, FrameView, Navigation, Shot, TabView};
pub use mode::{AgentMode, AgentSettings, ModeChoice, RunKind};
pub use run::{begin, checked_task, drive, Start, AGENT, APPROVAL_TIMEOUT_MS};
pub use session::{BrowserRun, BrowserSession};
