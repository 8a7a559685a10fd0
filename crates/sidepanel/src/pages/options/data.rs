//! The options page's Data section: export and import of settings and per-site data (never API
//! keys), and clearing everything.

use crate::{dom, worker};
use dusk_chrome::i18n;
use dusk_core::protocol::{WorkerRequest, WorkerResponse};
use dusk_core::storage_use::{format_bytes, StorageUse};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Element, HtmlElement, HtmlInputElement};

pub fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let section = dom::append(body, "fieldset", "data-options", "")?;
    section.set_id("data-options");
    dom::append_i18n(&section, "legend", "", "dataTitle")?;
    dom::append_i18n(&section, "p", "notice", "dataNote")?;
    let storage = dom::append(&section, "div", "storage-use", "")?;
    storage.set_id("data-storage");
    spawn_local(async move {
        match worker::request(&WorkerRequest::StorageUse).await {
            Ok(WorkerResponse::StorageUse(used)) => {
                let _ = show_storage(&storage, &used);
            }
            Ok(_) => storage.set_text_content(Some("unexpected reply")),
            Err(e) => storage.set_text_content(Some(&e)),
        }
    });
    let buttons = dom::append(&section, "div", "buttons", "")?;
    let export = dom::append_i18n(&buttons, "button", "", "dataExport")?;
    export.set_id("data-export");
    let import_label = dom::append(&buttons, "label", "file-button", "")?;
    dom::append_i18n(&import_label, "span", "", "dataImport")?;
    let import: HtmlInputElement = dom::append(&import_label, "input", "", "")?.dyn_into()?;
    import.set_type("file");
    import.set_id("data-import");
    import.set_accept("application/json,.json");
    let result = dom::append(&section, "div", "result", "")?;
    result.set_id("data-result");
    result.set_attribute("role", "status")?;
    // What can't be undone comes last, each behind a confirmation.
    let danger = dom::append(&section, "div", "buttons danger-zone", "")?;
    let clear_history = dom::append_i18n(&danger, "button", "danger", "dataClearHistory")?;
    clear_history.set_id("data-clear-history");
    let clear = dom::append_i18n(&danger, "button", "danger", "dataClear")?;
    clear.set_id("data-clear");
    if web_sys::window().and_then(|w| w.location().hash().ok()).as_deref() == Some("#imported") {
        show(&result, "ok", &i18n::message("dataImported"));
    }

    {
        let (section, result) = (section.clone(), result.clone());
        dom::on(&export, "click", move || {
            let (section, result) = (section.clone(), result.clone());
            spawn_local(async move {
                match worker::request(&WorkerRequest::ExportData).await {
                    Ok(WorkerResponse::DataExport { data }) => {
                        let _ = dom::download_json(&section, "data-file", "dusk-backup.json", &data);
                        show(&result, "ok", &i18n::message("dataExported"));
                    }
                    Ok(_) => show(&result, "error", "unexpected reply"),
                    Err(e) => show(&result, "error", &e),
                }
            });
        })?;
    }
    {
        let (input, result) = (import.clone(), result.clone());
        dom::on(&import.into(), "change", move || {
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            let result = result.clone();
            spawn_local(async move {
                let text = JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string()).unwrap_or_default();
                let outcome = match serde_json::from_str::<serde_json::Value>(&text) {
                    Err(e) => Err(format!("{} ({e})", i18n::message("dataNotJson"))),
                    Ok(data) => worker::request(&WorkerRequest::ImportData { data }).await.map(|_| ()),
                };
                match outcome {
                    // The sections show what was stored before; reloaded, they show the import (and a
                    // Save can't write the old provider form back over it).
                    Ok(()) => {
                        let _ = web_sys::window().map(|w| w.location().set_hash("imported"));
                        let _ = web_sys::window().map(|w| w.location().reload());
                    }
                    Err(e) => show(&result, "error", &e),
                }
            });
        })?;
    }
    {
        let result = result.clone();
        dom::on(&clear_history, "click", move || {
            let sure = web_sys::window().and_then(|w| w.confirm_with_message(&i18n::message("dataClearHistoryConfirm")).ok()).unwrap_or(false);
            if !sure {
                return;
            }
            let result = result.clone();
            spawn_local(async move {
                match worker::request(&WorkerRequest::HistoryClear).await {
                    Ok(_) => show(&result, "ok", &i18n::message("dataHistoryCleared")),
                    Err(e) => show(&result, "error", &e),
                }
            });
        })?;
    }
    dom::on(&clear, "click", move || {
        let sure = web_sys::window().and_then(|w| w.confirm_with_message(&i18n::message("dataClearConfirm")).ok()).unwrap_or(false);
        if !sure {
            return;
        }
        let result = result.clone();
        spawn_local(async move {
            match worker::request(&WorkerRequest::ClearData).await {
                // Every section shows what is stored; a reload shows the empty state.
                Ok(_) => {
                    let _ = web_sys::window().map(|w| w.location().reload());
                }
                Err(e) => show(&result, "error", &e),
            }
        });
    })
}

/// "Stored by Dusk: 9.8 MB — no limit: …", then one line per kind.
fn show_storage(parent: &Element, used: &StorageUse) -> Result<(), JsValue> {
    let limit = i18n::message(if used.unlimited { "storageUnlimited" } else { "storageLimited" });
    let total = format!("{}: {} — {limit}", i18n::message("storageInUse"), format_bytes(used.total_bytes));
    dom::append(parent, "p", "storage-total", &total)?;
    let list = dom::append(parent, "ul", "storage-kinds", "")?;
    for k in &used.kinds {
        let item = dom::append(&list, "li", "", &format!("{}: {}", i18n::message(k.kind.label_key()), format_bytes(k.bytes)))?;
        item.set_attribute("data-kind", serde_json::to_value(k.kind).ok().and_then(|v| v.as_str().map(str::to_string)).as_deref().unwrap_or(""))?;
    }
    Ok(())
}

fn show(result: &Element, class: &str, text: &str) {
    result.set_class_name(&format!("result {class}"));
    result.set_text_content(Some(text));
}
