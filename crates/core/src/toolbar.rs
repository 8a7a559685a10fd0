//! What the toolbar button shows for a tab: whether its site is dark, and whether Dusk is
//! working there (an agent or a Thorough run). The worker only applies it.

/// One tab's badge and tooltip.
#[derive(Debug, Clone, PartialEq)]
pub struct Badge {
    /// Empty hides the badge.
    pub text: &'static str,
    /// Badge background, `#rrggbb`.
    pub color: &'static str,
    /// `_locales` message for the tooltip, filled with the host.
    pub title_key: &'static str,
}

/// Working wins over the dark state: it is what the user may need to stop.
pub fn badge(dark_on: bool, working: bool) -> Badge {
    match (working, dark_on) {
        (true, _) => Badge { text: "…", color: "#b45309", title_key: "badgeWorking" },
        (false, true) => Badge { text: "on", color: "#3f3f46", title_key: "badgeDarkOn" },
        (false, false) => Badge { text: "", color: "#3f3f46", title_key: "badgeDarkOff" },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_shows_over_dark_and_off_shows_nothing() {
        assert_eq!(badge(false, false).text, "");
        assert_eq!(badge(true, false).text, "on");
        assert_eq!(badge(true, true).title_key, "badgeWorking");
        assert_eq!(badge(false, true).text, "…");
    }
}
