//! Keyboard shortcuts (manifest `commands`) and context-menu items, by the names Chrome uses.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    ToggleDark,
    OpenSidePanel,
    StopAgent,
}

impl Command {
    pub const ALL: [Command; 3] = [Command::ToggleDark, Command::OpenSidePanel, Command::StopAgent];

    /// The key in manifest.json's `commands`.
    pub fn name(self) -> &'static str {
        match self {
            Command::ToggleDark => "toggle-dark",
            Command::OpenSidePanel => "open-side-panel",
            Command::StopAgent => "stop-agent",
        }
    }

    pub fn from_name(name: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.name() == name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuItem {
    /// On a selection: ask about it in the side panel's chat, with the page as context.
    AskDusk,
    /// On a page: dark mode for its site, on or off.
    DarkForSite,
}

impl MenuItem {
    pub const ALL: [MenuItem; 2] = [MenuItem::AskDusk, MenuItem::DarkForSite];

    pub fn id(self) -> &'static str {
        match self {
            MenuItem::AskDusk => "ask-dusk",
            MenuItem::DarkForSite => "dark-for-site",
        }
    }

    /// `_locales` message for the item's title.
    pub fn title_key(self) -> &'static str {
        match self {
            MenuItem::AskDusk => "menuAskDusk",
            MenuItem::DarkForSite => "menuDarkForSite",
        }
    }

    /// `chrome.contextMenus` contexts the item shows in.
    pub fn context(self) -> &'static str {
        match self {
            MenuItem::AskDusk => "selection",
            MenuItem::DarkForSite => "page",
        }
    }

    pub fn from_id(id: &str) -> Option<MenuItem> {
        MenuItem::ALL.into_iter().find(|m| m.id() == id)
    }
}

/// chrome.storage.session key: text the side panel of `window_id` puts in its chat box.
pub const CHAT_PREFILL_KEY: &str = "chat_prefill";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatPrefill {
    pub window_id: i32,
    pub text: String,
}

impl ChatPrefill {
    /// The selection as a quote for the chat box, cut to what a question needs.
    pub fn from_selection(window_id: i32, selection: &str) -> ChatPrefill {
        const MAX: usize = 4000;
        let clean: String = selection.trim().chars().take(MAX).collect();
        let quoted: Vec<String> = clean.lines().map(|l| format!("> {l}")).collect();
        ChatPrefill { window_id, text: format!("{}\n\n", quoted.join("\n")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_selections_become_quotes() {
        for c in Command::ALL {
            assert_eq!(Command::from_name(c.name()), Some(c));
        }
        for m in MenuItem::ALL {
            assert_eq!(MenuItem::from_id(m.id()), Some(m));
        }
        let p = ChatPrefill::from_selection(3, "  first line\nsecond  ");
        assert_eq!(p.text, "> first line\n> second\n\n");
        assert_eq!(ChatPrefill::from_selection(3, &"x".repeat(10_000)).text.len(), 4000 + 4);
    }
}
