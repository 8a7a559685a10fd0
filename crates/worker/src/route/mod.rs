//! One arm per `WorkerRequest`; each RPC group lives in its own module.

mod custom;
mod data;
pub mod settings;
mod tabs;

use dusk_core::protocol::{WorkerRequest, WorkerResponse};

pub async fn handle(request: WorkerRequest) -> WorkerResponse {
    match request {
        WorkerRequest::Ping => crate::status::pong(),
        WorkerRequest::GetStatus => crate::status::status().await,
        WorkerRequest::TabRpc { tab_id, rpc } => tabs::relay(tab_id, rpc).await,
        WorkerRequest::GetSettings => WorkerResponse::Settings { settings: settings::load().await.redacted() },
        WorkerRequest::SaveSettings { settings } => settings::save(settings).await,
        WorkerRequest::TestConnection { provider } => settings::test_connection(provider).await,
        WorkerRequest::GetUsage => WorkerResponse::Usage(settings::usage().await),
        WorkerRequest::OnDeviceStatus => WorkerResponse::OnDevice { availability: crate::on_device::availability(false).await },
        // Only a page's mask sends it; `handle_message` answers it with the sender's tab.
        WorkerRequest::AgentStop => WorkerResponse::Error { message: "agent_stop comes from a page's mask".into() },
        WorkerRequest::ExportData => data::export().await,
        WorkerRequest::StorageUse => data::storage_use().await,
        WorkerRequest::ImportData { data } => data::import(data).await,
        WorkerRequest::ClearData => data::clear().await,
        WorkerRequest::HistoryList => crate::history::list().await,
        WorkerRequest::HistoryGet { id } => crate::history::item(&id).await,
        WorkerRequest::HistoryDelete { id } => crate::history::delete(&id).await,
        WorkerRequest::HistoryClear => crate::history::clear().await,
        WorkerRequest::CustomList
        | WorkerRequest::CustomSave { .. }
        | WorkerRequest::CustomSetEnabled { .. }
        | WorkerRequest::CustomRevert { .. }
        | WorkerRequest::CustomDelete { .. } => custom::handle(request).await,
    }
}
