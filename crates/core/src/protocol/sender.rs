//! Who may send what. Content scripts are less trusted than extension pages (a compromised
//! renderer can send anything its content script can), so one table names, for every message
//! type and port, the senders the worker serves; everything is checked against it first.

use crate::CoreError;
use serde::Deserialize;

/// Content scripts obey only their own extension: `sender.id` must equal our runtime id.
pub fn check_sender(sender_id: Option<&str>, own_id: &str) -> Result<(), CoreError> {
    match sender_id {
        Some(id) if !own_id.is_empty() && id == own_id => Ok(()),
        _ => Err(CoreError::UntrustedSender),
    }
}

/// What a refused request gets back, word for word.
pub const NOT_ALLOWED: &str = "not allowed from this context";

/// `chrome.runtime.MessageSender`, as the browser fills it in (pages can't forge it).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sender {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub tab: Option<SenderTab>,
    #[serde(default)]
    pub frame_id: Option<i32>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct SenderTab {
    #[serde(default)]
    pub id: Option<i32>,
}

/// Who may send a message type (or open a port).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Senders {
    /// Dusk's own pages: popup, side panel, options (`sender.url` under the extension's origin).
    ExtensionPages,
    /// Only the side panel page.
    SidePanel,
    /// Content scripts, for their own tab only.
    ContentScripts,
}

/// The one table: message `type` (or port name) → who may send it.
pub fn senders_of(kind: &str) -> Senders {
    match kind {
        // A content script needs only these: a cross-origin sheet's text, and the mask's Stop.
        "dark_fetch_css" | "agent_stop" | "dark_load_frames" => Senders::ContentScripts,
        "agent" => Senders::SidePanel,
        "ping"
        | "get_status"
        | "tab_rpc"
        | "get_settings"
        | "save_settings"
        | "test_connection"
        | "get_usage"
        | "llm"
        | "chat"
        | "dark_get_state"
        | "dark_set_site"
        | "dark_set_auto"
        | "dark_set_mode"
        | "dark_refine"
        | "dark_stop"
        | "dark_revert"
        | "dark_back_to_instant"
        | "dark_forget_site" => Senders::ExtensionPages,
        // Unknown to the protocol: only Dusk's own pages get as far as the parser's error naming it.
        _ => Senders::ExtensionPages,
    }
}

/// What a sender is, from the browser's own description of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SenderKind {
    /// `path` is the page's path inside the extension, e.g. "sidepanel.html".
    ExtensionPage {
        path: String,
    },
    ContentScript {
        tab: i32,
    },
    Stranger,
}

impl Sender {
    /// `own_origin` is `chrome-extension://<id>/`.
    pub fn kind(&self, own_id: &str, own_origin: &str) -> SenderKind {
        if own_id.is_empty() || self.id.as_deref() != Some(own_id) {
            return SenderKind::Stranger;
        }
        let url = self.url.as_deref().unwrap_or_default();
        if let Some(rest) = url.strip_prefix(own_origin).filter(|_| !own_origin.is_empty()) {
            let path = rest.split(['?', '#']).next().unwrap_or_default().to_string();
            return SenderKind::ExtensionPage { path };
        }
        match self.tab.as_ref().and_then(|t| t.id) {
            Some(tab) => SenderKind::ContentScript { tab },
            None => SenderKind::Stranger,
        }
    }

    pub fn tab_id(&self) -> Option<i32> {
        self.tab.as_ref().and_then(|t| t.id)
    }
}

/// Checks `kind` (a message type or port name) against the table for this sender.
pub fn check(kind: &str, sender: &Sender, own_id: &str, own_origin: &str) -> Result<(), &'static str> {
    let who = sender.kind(own_id, own_origin);
    let ok = match (senders_of(kind), &who) {
        (Senders::ExtensionPages, SenderKind::ExtensionPage { .. }) => true,
        (Senders::SidePanel, SenderKind::ExtensionPage { path }) => path == "sidepanel.html",
        (Senders::ContentScripts, SenderKind::ContentScript { .. }) => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(NOT_ALLOWED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "abc";
    const ORIGIN: &str = "chrome-extension://abc/";

    fn page(path: &str) -> Sender {
        Sender { id: Some(ID.into()), url: Some(format!("{ORIGIN}{path}")), ..Sender::default() }
    }

    fn content(url: &str, tab: i32) -> Sender {
        Sender { id: Some(ID.into()), url: Some(url.into()), tab: Some(SenderTab { id: Some(tab) }), frame_id: Some(0) }
    }

    #[test]
    fn accepts_only_own_extension() {
        assert_eq!(check_sender(Some("abc"), "abc"), Ok(()));
        assert_eq!(check_sender(Some("evil"), "abc"), Err(CoreError::UntrustedSender));
        assert_eq!(check_sender(None, "abc"), Err(CoreError::UntrustedSender));
        assert_eq!(check_sender(Some(""), ""), Err(CoreError::UntrustedSender));
    }

    #[test]
    fn content_scripts_get_only_what_they_need() {
        let cs = content("https://evil.example/", 7);
        for kind in ["save_settings", "tab_rpc", "get_settings", "test_connection", "llm", "chat", "agent", "dark_set_site", "dark_refine", "whatever"] {
            assert_eq!(check(kind, &cs, ID, ORIGIN), Err(NOT_ALLOWED), "{kind}");
        }
        assert_eq!(check("dark_fetch_css", &cs, ID, ORIGIN), Ok(()));
        assert_eq!(check("agent_stop", &cs, ID, ORIGIN), Ok(()));
        assert_eq!(cs.tab_id(), Some(7));
    }

    #[test]
    fn extension_pages_get_the_rest_and_only_the_panel_drives_the_agent() {
        let options = page("options.html");
        assert_eq!(check("save_settings", &options, ID, ORIGIN), Ok(()));
        assert_eq!(check("agent", &options, ID, ORIGIN), Err(NOT_ALLOWED));
        assert_eq!(check("agent", &page("sidepanel.html"), ID, ORIGIN), Ok(()));
        assert_eq!(check("dark_fetch_css", &options, ID, ORIGIN), Err(NOT_ALLOWED), "pages have no sheets to fetch");
        let stranger = Sender { id: Some("other".into()), url: Some(format!("{ORIGIN}options.html")), ..Sender::default() };
        assert_eq!(check("ping", &stranger, ID, ORIGIN), Err(NOT_ALLOWED));
        assert_eq!(check("ping", &Sender::default(), ID, ORIGIN), Err(NOT_ALLOWED));
        assert_eq!(check("launch_missiles", &options, ID, ORIGIN), Ok(()), "the parser names an unknown type to Dusk's pages");
    }

    #[test]
    fn the_browser_sender_shape_parses() {
        let s: Sender = crate::protocol::from_value(serde_json::json!({
            "id": "abc", "url": "https://a.example/x", "origin": "https://a.example", "frameId": 0,
            "tab": {"id": 7, "url": "https://a.example/x", "active": true}, "documentId": "D"
        }))
        .unwrap();
        assert_eq!(s.kind(ID, ORIGIN), SenderKind::ContentScript { tab: 7 });
    }
}
