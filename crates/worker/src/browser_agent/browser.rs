//! Core's `Browser` on real tabs: content-script RPCs, chrome.tabs for navigation and tabs,
//! captureVisibleTab with labels, user scripts for execute_js, the side panel for approvals.

use super::{approvals, events, store};
use crate::screenshot;
use dusk_chrome::message::{error_text, from_js};
use dusk_chrome::{scripting, tabs, user_scripts};
use dusk_core::agent::{Approval, ConfirmRequest, Host, StopSignal};
use dusk_core::browser_agent::safety::boundary::Boundary;
use dusk_core::browser_agent::{script, Browser, FrameView, Navigation, Shot, TabView, APPROVAL_TIMEOUT_MS};
use dusk_core::customize::SiteCustom;
use dusk_core::llm::Image;
use dusk_core::protocol::actions::FilePayload;
use dusk_core::protocol::css::ThemeQuality;
use dusk_core::protocol::dark::{DarkContentRequest, DarkContentResponse};
use dusk_core::protocol::{AgentPortEvent, ConfirmCard, ContentRequest, ContentResponse};
use wasm_bindgen::prelude::*;

pub struct TabsBrowser {
    pub window_id: i32,
    pub run_id: String,
    pub stop: StopSignal,
}

fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = js_sys::Reflect::set(&o, &(*k).into(), v);
    }
    o.into()
}

pub use crate::content_rpc::rpc;

/// The window's tabs as the agent sees them.
pub async fn window_tabs(window_id: i32) -> Result<Vec<TabView>, String> {
    Ok(crate::window_tabs::query(window_id)
        .await?
        .into_iter()
        .filter_map(|t| {
            Some(TabView {
                tab_id: t.id?,
                title: t.title,
                url: if t.url.is_empty() { t.pending_url.unwrap_or_default() } else { t.url },
                opener: t.opener_tab_id,
                loading: t.status.as_deref() == Some("loading"),
            })
        })
        .collect())
}

impl Host for TabsBrowser {
    crate::checkpoints::worker_host_basics!();
    /// Shows the card (highlighted crop of the target, the page, the action) and waits for the
    /// panel's answer, at most two minutes.
    async fn approval(&self, request: &ConfirmRequest) -> Option<Approval> {
        let token = approvals::new_token();
        let tab = store::current_tab(self.window_id);
        let crop = match (&request.target, tab) {
            (Some(t), Some(tab)) => self.crop(tab, t.index, &t.rect).await,
            _ => None,
        };
        let upload = request.tool == "upload_file";
        let card = ConfirmCard { request: request.clone(), token: token.clone(), crop, upload };
        events::emit(self.window_id, AgentPortEvent::Confirm { card });
        let answer = approvals::wait(&request.run_id, request.step, &token, APPROVAL_TIMEOUT_MS).await;
        let approved = matches!(answer, Some(approvals::Answer::Approved { .. }));
        events::emit(self.window_id, AgentPortEvent::ConfirmClosed { step: request.step, approved });
        match answer? {
            approvals::Answer::Approved { digest, .. } => Some(Approval { run_id: request.run_id.clone(), step: request.step, digest }),
            approvals::Answer::Denied => None,
        }
    }
}

fn first_result(results: &JsValue) -> serde_json::Value {
    let first = js_sys::Reflect::get(results, &0.into()).unwrap_or_default();
    let result = js_sys::Reflect::get(&first, &"result".into()).unwrap_or_default();
    from_js::<serde_json::Value>(result).unwrap_or(serde_json::Value::Null)
}

/// The fallback: `duskEvalInPage` (worker.js) serialised into the page's main world.
async fn eval_in_page(tab: i32, code: &str) -> Result<serde_json::Value, String> {
    let eval = js_sys::Reflect::get(&js_sys::global(), &"duskEvalInPage".into()).unwrap_or_default();
    let args = js_sys::Array::of1(&code.into());
    let injection = object(&[("target", object(&[("tabId", tab.into())])), ("world", "MAIN".into()), ("func", eval), ("args", args.into())]);
    let results = scripting::execute_script(&injection).await.map_err(|e| format!("the script could not run: {}", error_text(&e)))?;
    match script::outcome(&first_result(&results)) {
        Some(Err(e)) if e.contains("EvalError") => Err(format!(
            "{e} — this page's CSP forbids running script text; allow user scripts for Dusk (chrome://extensions → Dusk → Details → Allow User Scripts) to run script on any page"
        )),
        Some(outcome) => outcome,
        None => Err("the script returned nothing Dusk could read".into()),
    }
}

impl TabsBrowser {
    async fn crop(&self, tab: i32, index: u32, rect: &dusk_core::protocol::page::Rect) -> Option<String> {
        let _ = rpc(tab, &ContentRequest::Highlight { index, duration_ms: Some(2500) }).await;
        let width = match rpc(tab, &ContentRequest::PageSummary { text_limit: 0 }).await {
            Ok(ContentResponse::PageSummary(s)) => s.viewport.width,
            _ => return None,
        };
        let _ = tabs::update(tab, &object(&[("active", true.into())])).await;
        screenshot::capture_crop(tab, rect, width).await.ok().map(|i| i.data_url())
    }
}

impl Browser for TabsBrowser {
    async fn rpc(&self, tab: i32, request: ContentRequest) -> Result<ContentResponse, String> {
        store::set_current_tab(self.window_id, tab);
        rpc(tab, &request).await
    }

    async fn tabs(&self) -> Result<Vec<TabView>, String> {
        window_tabs(self.window_id).await
    }

    async fn navigate(&self, tab: i32, nav: &Navigation) -> Result<(), String> {
        let done = match nav {
            Navigation::Url(url) => tabs::update(tab, &object(&[("url", url.as_str().into())])).await,
            Navigation::Back => tabs::go_back(tab).await,
            Navigation::Forward => tabs::go_forward(tab).await,
            Navigation::Reload => tabs::reload(tab).await,
        };
        done.map(|_| ()).map_err(|e| error_text(&e))
    }

    async fn open_tab(&self, url: &str) -> Result<i32, String> {
        let props = object(&[("url", url.into()), ("active", true.into()), ("windowId", self.window_id.into())]);
        let tab = tabs::create(&props).await.map_err(|e| error_text(&e))?;
        js_sys::Reflect::get(&tab, &"id".into()).ok().and_then(|v| v.as_f64()).map(|v| v as i32).ok_or_else(|| "the browser opened no tab".into())
    }

    async fn activate(&self, tab: i32) -> Result<(), String> {
        store::set_current_tab(self.window_id, tab);
        tabs::update(tab, &object(&[("active", true.into())])).await.map(|_| ()).map_err(|e| error_text(&e))
    }

    async fn screenshot(&self, tab: i32, shot: &Shot) -> Result<Image, String> {
        screenshot::capture_marked(tab, shot).await
    }

    /// User scripts run code strings in the page's main world whatever its CSP; without them
    /// (the user hasn't allowed them) an indirect eval works where the page's CSP allows eval.
    async fn execute_js(&self, tab: i32, code: &str) -> Result<serde_json::Value, String> {
        if !user_scripts::available() {
            return eval_in_page(tab, code).await;
        }
        for wrapped in [script::as_expression(code), script::as_body(code)] {
            let js = js_sys::Array::of1(&object(&[("code", wrapped.as_str().into())]));
            let injection = object(&[("target", object(&[("tabId", tab.into())])), ("world", "MAIN".into()), ("js", js.into())]);
            let results = match user_scripts::execute(&injection).await {
                Ok(r) => r,
                // The API stays defined after the user switches user scripts off, but refuses.
                Err(e) if error_text(&e).contains("not available") => return eval_in_page(tab, code).await,
                Err(e) => return Err(format!("the script could not run: {}", error_text(&e))),
            };
            if let Some(outcome) = script::outcome(&first_result(&results)) {
                return outcome;
            }
        }
        Err("the script has a syntax error (write an expression, or statements with `return`)".into())
    }

    async fn sleep(&self, ms: u32) {
        crate::fetch::sleep(ms).await
    }

    fn picked_files(&self, step: u32) -> Vec<FilePayload> {
        approvals::take_files(&self.run_id, step)
    }

    async fn watch_dialogs(&self, tab: i32) -> bool {
        crate::dialogs::watch(tab).await
    }

    async fn dialog_opened(&self, tab: i32) -> dusk_core::browser_agent::browser::PageDialog {
        crate::dialogs::opened(tab).await
    }

    async fn answer_dialog(&self, tab: i32, answer: &dusk_core::browser_agent::browser::DialogAnswer) -> Result<(), String> {
        crate::dialogs::answer(tab, answer).await
    }

    fn typed_answer(&self, step: u32) -> Option<String> {
        approvals::take_text(&self.run_id, step)
    }

    async fn frames(&self, tab: i32) -> Result<Vec<FrameView>, String> {
        crate::frames::other_origin(tab).await
    }

    async fn frame_rpc(&self, tab: i32, frame_id: i32, request: ContentRequest) -> Result<ContentResponse, String> {
        crate::frames::rpc(tab, frame_id, &request).await
    }

    async fn set_boundary(&self, boundary: &Boundary) -> Result<(), String> {
        crate::boundary::set(boundary).await
    }

    async fn lift_boundary(&self) {
        crate::boundary::lift(self.window_id).await
    }

    async fn site_custom(&self, host: &str) -> Result<SiteCustom, String> {
        Ok(crate::customize::load(host).await)
    }

    async fn save_site_custom(&self, record: &SiteCustom) -> Result<(), String> {
        crate::customize::save(record).await
    }

    async fn measure_page(&self, tab: i32, baseline: bool) -> Result<ThemeQuality, String> {
        match crate::layer_load::dark_rpc(tab, &DarkContentRequest::DarkThemeMeasure { baseline, reset: false }).await? {
            DarkContentResponse::ThemeQuality(q) => Ok(q),
            other => Err(other.unexpected()),
        }
    }

    async fn user_scripts_enabled(&self) -> bool {
        user_scripts::allowed().await
    }
}
