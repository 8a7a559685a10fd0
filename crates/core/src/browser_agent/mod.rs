//! The browser-action agent (seed 001). So far: its safety rules, in code, which the runtime's
//! confirmation gate enforces. Its actions, context and prompts come next (issue 17).

pub mod safety;
