use crate::fetch::controller_with_timeout;
use crate::llm::{FetchTransport, TimerSleeper};
use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::storage;
use dusk_core::llm::LlmClient;
use dusk_core::protocol::{ConnectionReport, UsageTotals, WorkerResponse};
use dusk_core::settings::{ProviderSettings, Settings, STORAGE_KEY};

/// A connection test that hangs this long is reported as a timeout.
const TEST_TIMEOUT_MS: u32 = 20_000;

pub async fn load() -> Settings {
    crate::stored::settings().await
}

pub async fn save(mut settings: Settings) -> WorkerResponse {
    settings.restore_keys(&load().await);
    match storage::local_set(STORAGE_KEY, &to_js(&settings)).await {
        Ok(()) => WorkerResponse::Saved,
        Err(e) => WorkerResponse::Error { message: format!("could not save settings: {}", error_text(&e)) },
    }
}

pub async fn usage() -> UsageTotals {
    let stored = storage::local_get(UsageTotals::STORAGE_KEY).await.ok();
    stored.and_then(|v| from_js(v).ok()).unwrap_or_default()
}

/// Adds a request's usage to the stored totals.
pub async fn record_usage(model: &str, u: &dusk_core::llm::Usage) {
    let mut totals = usage().await;
    totals.add(model, u);
    // Totals are Dusk's own accounting, not the user's data: a refused write is logged, not shown.
    if let Err(e) = storage::local_set(UsageTotals::STORAGE_KEY, &to_js(&totals)).await {
        crate::console::web_sys_log(&format!("dusk: could not store the usage totals: {}", error_text(&e)));
    }
}

pub async fn test_connection(mut provider: ProviderSettings) -> WorkerResponse {
    let stored = load().await;
    let mut one = Settings { provider: Some(provider.kind), providers: vec![provider] };
    one.restore_keys(&stored);
    provider = one.providers.remove(0);
    let controller = match controller_with_timeout(TEST_TIMEOUT_MS) {
        Ok(c) => c,
        Err(e) => return WorkerResponse::Error { message: error_text(&e) },
    };
    let (kind, model) = (provider.kind, provider.effective_model());
    let client = LlmClient::new(provider, FetchTransport { signal: controller.signal() }, TimerSleeper);
    let started = js_sys::Date::now();
    let result = client.test_connection().await;
    if let Ok(check) = &result {
        if let Some(u) = &check.usage {
            record_usage(&model, u).await;
        }
    }
    WorkerResponse::ConnectionResult(ConnectionReport::new(kind, &model, result, js_sys::Date::now() - started))
}
