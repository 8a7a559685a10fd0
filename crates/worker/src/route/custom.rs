//! Options → Customised sites: list, edit, disable, revert, delete. Each answer is the new list.

use crate::customize;
use dusk_chrome::user_scripts;
use dusk_core::protocol::{WorkerRequest, WorkerResponse};

pub async fn handle(request: WorkerRequest) -> WorkerResponse {
    let done = match request {
        WorkerRequest::CustomList => {
            // The user may have allowed user scripts since the last save: register the sites' JS now.
            customize::sync().await;
            Ok(())
        }
        WorkerRequest::CustomSave { host, css, js } => {
            let mut record = customize::load(&host).await;
            match record.save(&css, &js, "edited in options", crate::clock::now_ms()) {
                Ok(_) => customize::save(&record).await,
                Err(e) => Err(e),
            }
        }
        WorkerRequest::CustomSetEnabled { host, enabled } => {
            let mut record = customize::load(&host).await;
            record.enabled = enabled;
            customize::save(&record).await
        }
        WorkerRequest::CustomRevert { host, version } => {
            let mut record = customize::load(&host).await;
            match record.revert(version, crate::clock::now_ms()) {
                Ok(()) => customize::save(&record).await,
                Err(e) => Err(e),
            }
        }
        WorkerRequest::CustomDelete { host } => customize::delete(&host).await,
        _ => Err("not a customisation request".into()),
    };
    match done {
        Ok(()) => WorkerResponse::CustomSites { sites: customize::all().await, user_scripts: user_scripts::allowed().await },
        Err(message) => WorkerResponse::Error { message },
    }
}
