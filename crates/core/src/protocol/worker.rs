use super::{ConnectionReport, ContentRequest, Status, UsageTotals};
use crate::settings::{ProviderSettings, Settings};
use serde::{Deserialize, Serialize};

/// Messages UI pages send to the service worker with `chrome.runtime.sendMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum WorkerRequest {
    /// Liveness check; also reports how long wasm init took.
    Ping,
    /// What the popup, side panel and options page show at the top.
    GetStatus,
    /// Relays a DOM RPC to the content script of a tab.
    TabRpc {
        tab_id: i32,
        rpc: ContentRequest,
    },
    /// The stored settings with every API key replaced by `<redacted>`.
    GetSettings,
    /// Stores settings; a key left as `<redacted>` keeps its stored value.
    SaveSettings {
        settings: Settings,
    },
    /// Makes a real minimal request with these (unsaved) provider settings.
    TestConnection {
        provider: ProviderSettings,
    },
    /// Tokens and cost spent so far.
    GetUsage,
    /// What `LanguageModel.availability()` says in the worker (or that there is no such API).
    OnDeviceStatus,
    /// The Stop on the page's mask: stops the agent run working in the sender's tab.
    AgentStop,
    /// Settings and per-site data as a backup (`core::backup`), API keys left out.
    ExportData,
    /// Writes a backup's settings and per-site data; stored API keys stay.
    ImportData {
        data: serde_json::Value,
    },
    /// Forgets everything Dusk stored, keys included.
    ClearData,
    /// Options → Customised sites: every site's customisation.
    CustomList,
    /// An edit made in options, saved as a new version.
    CustomSave {
        host: String,
        css: String,
        js: String,
    },
    CustomSetEnabled {
        host: String,
        enabled: bool,
    },
    /// Makes version `version` (0 = oldest) current again.
    CustomRevert {
        host: String,
        version: usize,
    },
    CustomDelete {
        host: String,
    },
    /// Options → Data: what Dusk keeps in chrome.storage.local, by kind.
    StorageUse,
    /// The side panel's History view: kept conversations and runs, newest first.
    HistoryList,
    /// One kept item, to reopen or export.
    HistoryGet {
        id: String,
    },
    HistoryDelete {
        id: String,
    },
    /// Forgets every kept conversation and run (options → Data).
    HistoryClear,
}
crate::protocol::tagged::type_tagged!(WorkerRequest, "type");

/// The worker's replies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum WorkerResponse {
    Pong {
        version: String,
        init_ms: f64,
    },
    Status(Status),
    Content {
        response: serde_json::Value,
    },
    Settings {
        settings: Settings,
    },
    Saved,
    ConnectionResult(ConnectionReport),
    Usage(UsageTotals),
    OnDevice {
        availability: crate::llm::on_device::Availability,
    },
    DataExport {
        data: serde_json::Value,
    },
    /// The customised sites, and whether user scripts are allowed (so saved JS runs).
    CustomSites {
        sites: Vec<crate::customize::SiteCustom>,
        user_scripts: bool,
    },
    StorageUse(crate::storage_use::StorageUse),
    History(crate::history::HistoryList),
    HistoryItem {
        item: crate::history::Item,
    },
    Error {
        message: String,
    },
}
crate::protocol::tagged::type_tagged!(WorkerResponse, "type");
