//! The History view, in place of the conversation: Back, a search box, then kept conversations
//! and runs grouped Today / Earlier, newest first, with their kind, page and time; each can be
//! reopened, exported (Markdown or JSON) or deleted. The bound is said in a line below the list.

use crate::icons::{self, Icon};
use crate::{dom, worker};
use dusk_chrome::i18n;
use dusk_core::history::export::{self, Labels};
use dusk_core::history::{search, HistoryList, Item, Summary};
use dusk_core::protocol::{WorkerRequest, WorkerResponse};
use dusk_core::storage_use::format_bytes;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{Element, HtmlInputElement};

type OnOpen = Rc<dyn Fn(Item)>;

pub struct History {
    limit: Element,
    evicted: Element,
    list: Element,
    status: Element,
    search: HtmlInputElement,
    /// The last list the worker sent, filtered again as the search changes.
    shown: RefCell<Option<HistoryList>>,
    on_open: OnOpen,
}

pub fn render(pane: &Element, on_open: OnOpen, on_back: Rc<dyn Fn()>) -> Result<Rc<History>, JsValue> {
    let top = dom::append(pane, "div", "history-top", "")?;
    let back = icons::button(&top, "history-back", Icon::Back, &i18n::message("back"))?;
    dom::on(&back, "click", move || on_back())?;
    dom::append_i18n(&top, "h2", "history-title", "historyTitle")?;
    let search: HtmlInputElement = dom::append(pane, "input", "history-search", "")?.dyn_into()?;
    search.set_id("history-search");
    search.set_type("search");
    search.set_placeholder(&i18n::message("historySearch"));
    search.set_attribute("aria-label", &i18n::message("historySearch"))?;
    let status = dom::append(pane, "div", "usage", "")?;
    status.set_id("history-status");
    status.set_attribute("role", "status")?;
    let scroll = dom::append(pane, "div", "history-scroll", "")?;
    let list = dom::append(&scroll, "div", "history-list", "")?;
    list.set_id("history-list");
    let limit = dom::append(&scroll, "p", "notice", "")?;
    limit.set_id("history-limit");
    let evicted = dom::append(&scroll, "p", "notice", "")?;
    evicted.set_id("history-evicted");
    evicted.set_attribute("hidden", "")?;
    let history = Rc::new(History { limit, evicted, list, status, search: search.clone(), shown: RefCell::new(None), on_open });
    let me = history.clone();
    dom::on(search.as_ref(), "input", move || {
        let list = me.shown.borrow().clone();
        if let Some(list) = list {
            if let Err(e) = me.show(&list) {
                web_sys::console::error_1(&e);
            }
        }
    })?;
    Ok(history)
}

impl History {
    /// Asks the worker for the list and shows it.
    pub fn refresh(self: &Rc<Self>) {
        self.request(WorkerRequest::HistoryList);
    }

    fn request(self: &Rc<Self>, request: WorkerRequest) {
        let this = self.clone();
        spawn_local(async move {
            match worker::request(&request).await {
                Ok(WorkerResponse::History(list)) => {
                    if let Err(e) = this.show(&list) {
                        web_sys::console::error_1(&e);
                    }
                }
                Ok(_) => this.say("unexpected reply"),
                Err(e) => this.say(&e),
            }
        });
    }

    fn say(&self, text: &str) {
        self.status.set_text_content(Some(text));
    }

    fn show(self: &Rc<Self>, list: &HistoryList) -> Result<(), JsValue> {
        let limits = &list.limits;
        let limit = i18n::message_with("historyLimit", &[&limits.max_items.to_string(), &format_bytes(limits.max_bytes)]);
        self.limit.set_text_content(Some(&format!("{limit} {}", i18n::message_with("historyInUse", &[&format_bytes(list.total_bytes)]))));
        self.evicted.set_text_content(Some(&i18n::message_with("historyEvicted", &[&list.evicted.to_string()])));
        self.evicted.toggle_attribute_with_force("hidden", list.evicted == 0)?;
        self.list.set_inner_html("");
        *self.shown.borrow_mut() = Some(list.clone());
        if list.items.is_empty() {
            dom::append_i18n(&self.list, "p", "history-empty", "historyEmpty")?;
        }
        let query = self.search.value();
        let found: Vec<&Summary> = list.items.iter().filter(|s| search::matches(s, &query)).collect();
        if !list.items.is_empty() && found.is_empty() {
            dom::append_i18n(&self.list, "p", "history-empty", "historyNoMatch")?;
        }
        let today = start_of_today();
        let (recent, older): (Vec<&Summary>, Vec<&Summary>) = found.into_iter().partition(|s| s.updated_ms >= today);
        for (key, items) in [("historyToday", recent), ("historyEarlier", older)] {
            if items.is_empty() {
                continue;
            }
            let group = dom::append(&self.list, "section", "history-group", "")?;
            let heading = dom::append_i18n(&group, "h3", "", key)?;
            heading.set_id(&format!("history-group-{key}"));
            let ul = dom::append(&group, "ul", "history-items", "")?;
            ul.set_attribute("aria-labelledby", &format!("history-group-{key}"))?;
            for s in items {
                self.row(&ul, s)?;
            }
        }
        Ok(())
    }

    fn row(self: &Rc<Self>, ul: &Element, s: &Summary) -> Result<(), JsValue> {
        let li = dom::append(ul, "li", "history-item", "")?;
        li.set_attribute("data-id", &s.id)?;
        let kind = serde_json::to_value(s.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        li.set_attribute("data-kind", &kind)?;
        let head = dom::append(&li, "div", "history-head", "")?;
        dom::append_i18n(&head, "span", "history-kind", s.kind.label_key())?;
        let open = dom::append(&head, "button", "history-open link", &s.title)?;
        open.set_attribute("title", &i18n::message("historyOpen"))?;
        let page = s.page.as_ref().map(|p| if p.title.is_empty() { p.host() } else { format!("{} · {}", p.host(), p.title) });
        let meta = [page.unwrap_or_default(), when_text(s.updated_ms)].into_iter().filter(|t| !t.is_empty()).collect::<Vec<_>>();
        dom::append(&li, "div", "history-meta", &meta.join(" · "))?;
        let actions = dom::append(&li, "div", "history-actions", "")?;
        let md = dom::append_i18n(&actions, "button", "history-md", "historyExportMd")?;
        let json = dom::append_i18n(&actions, "button", "history-json", "historyExportJson")?;
        let delete = dom::append_i18n(&actions, "button", "history-delete", "historyDelete")?;
        for b in [&md, &json, &delete] {
            b.set_attribute("aria-label", &format!("{} — {}", b.text_content().unwrap_or_default(), s.title))?;
        }
        let id = s.id.clone();
        {
            let (this, id) = (self.clone(), id.clone());
            dom::on(&open, "click", move || this.with_item(&id, |this, item| (this.on_open)(item)))?;
        }
        {
            let (this, id) = (self.clone(), id.clone());
            dom::on(&md, "click", move || this.with_item(&id, |this, item| this.download(&item, true)))?;
        }
        {
            let (this, id) = (self.clone(), id.clone());
            dom::on(&json, "click", move || this.with_item(&id, |this, item| this.download(&item, false)))?;
        }
        let this = self.clone();
        dom::on(&delete, "click", move || this.request(WorkerRequest::HistoryDelete { id: id.clone() }))
    }

    fn with_item(self: &Rc<Self>, id: &str, then: impl FnOnce(&Rc<Self>, Item) + 'static) {
        let (this, id) = (self.clone(), id.to_string());
        spawn_local(async move {
            match worker::request(&WorkerRequest::HistoryGet { id }).await {
                Ok(WorkerResponse::HistoryItem { item }) => then(&this, item),
                Ok(_) => this.say("unexpected reply"),
                Err(e) => this.say(&e),
            }
        });
    }

    fn download(&self, item: &Item, markdown: bool) {
        let Some(parent) = self.list.parent_element() else { return };
        let done = if markdown {
            let text = export::markdown(item, &labels(), &date_text(item.summary.updated_ms));
            dom::download_text(&parent, "history-file", &export::file_name(item, "md"), "text/markdown", &text)
        } else {
            dom::download_json(&parent, "history-file", &export::file_name(item, "json"), &export::json(item))
        };
        if let Err(e) = done {
            self.say(&format!("{e:?}"));
        }
    }
}

/// Local midnight today, in ms: the line between Today and Earlier.
fn start_of_today() -> f64 {
    let now = js_sys::Date::new_0();
    now.set_hours(0);
    now.set_minutes(0);
    now.set_seconds(0);
    now.set_milliseconds(0);
    now.get_time()
}

/// Today's items by their time ("10:42"), older ones by their date and time.
fn when_text(ms: f64) -> String {
    if ms < start_of_today() {
        return date_text(ms);
    }
    let date = js_sys::Date::new(&JsValue::from_f64(ms));
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into());
    date.to_locale_time_string_with_options(&i18n::ui_language(), &options).as_string().unwrap_or_default()
}

/// The date in the browser's language, e.g. "26/11/2026, 10:42:07".
pub fn date_text(ms: f64) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(ms));
    date.to_locale_string(&i18n::ui_language(), &JsValue::UNDEFINED).as_string().unwrap_or_default()
}

fn labels() -> Labels {
    Labels {
        page: i18n::message("historyMdPage"),
        date: i18n::message("historyMdDate"),
        you: i18n::message("historyMdYou"),
        dusk: i18n::message("extName"),
        steps: i18n::message("historyMdSteps"),
        result: i18n::message("historyMdResult"),
        stopped: i18n::message("stoppedNote"),
    }
}
