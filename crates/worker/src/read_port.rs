//! A kept port to a tab's top frame for the chat's page reads. A one-time message
//! (`tabs.sendMessage`) sets up a channel every time; a port set up once answers the next reads in
//! one hop each. It is opened after a tab's first read (the always-on script listens for it from
//! then on) and closes when the document goes away; a read finding no port goes as a one-time message.

use dusk_chrome::runtime::{self, Port};
use dusk_chrome::tabs;
use js_sys::{Function, Object, Promise, Reflect};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The port's name, as content.js listens for it.
const READ_PORT: &str = "read";

struct Kept {
    port: Port,
    /// Each read awaiting its reply, by id: the function that resolves its promise.
    waiting: RefCell<BTreeMap<u32, Function>>,
    /// Kept alive with the port; dropped when it closes.
    _replies: Closure<dyn FnMut(JsValue)>,
}

thread_local! {
    static PORTS: RefCell<BTreeMap<i32, Rc<Kept>>> = const { RefCell::new(BTreeMap::new()) };
    static NEXT_ID: Cell<u32> = const { Cell::new(0) };
}

/// Sends `message` over the tab's kept port and awaits the reply. None when the tab has no port,
/// or it closed before answering (the document went away): then the caller sends a one-time message.
pub async fn ask(tab_id: i32, message: &JsValue) -> Option<JsValue> {
    let kept = PORTS.with(|p| p.borrow().get(&tab_id).cloned())?;
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    let envelope = Object::new();
    Reflect::set(&envelope, &"id".into(), &id.into()).ok()?;
    Reflect::set(&envelope, &"message".into(), message).ok()?;
    let reply = Promise::new(&mut |resolve, _| {
        kept.waiting.borrow_mut().insert(id, resolve);
    });
    if kept.port.post_message(&envelope).is_err() {
        close(tab_id, &kept);
        return None;
    }
    drop(kept);
    let reply = JsFuture::from(reply).await.ok()?;
    Some(reply).filter(|r| !r.is_undefined())
}

/// Opens the tab's port a moment after a read the page answered (so its script listens): setting
/// it up costs the page about as much as a read's message, and the read's answer is not kept waiting.
pub fn open_soon(tab_id: i32) {
    wasm_bindgen_futures::spawn_local(async move {
        crate::fetch::sleep(OPEN_AFTER_MS).await;
        open(tab_id);
    });
}

/// How long after a read its tab's port is opened.
const OPEN_AFTER_MS: u32 = 100;

fn open(tab_id: i32) {
    if PORTS.with(|p| p.borrow().contains_key(&tab_id)) {
        return;
    }
    let Ok(port) = tabs::connect(tab_id, READ_PORT) else { return };
    let replies = Closure::<dyn FnMut(JsValue)>::new(move |message: JsValue| {
        let Some(kept) = PORTS.with(|p| p.borrow().get(&tab_id).cloned()) else { return };
        let id = Reflect::get(&message, &"id".into()).ok().and_then(|i| i.as_f64());
        let resolve = id.and_then(|id| kept.waiting.borrow_mut().remove(&(id as u32)));
        if let Some(resolve) = resolve {
            let _ = resolve.call1(&JsValue::UNDEFINED, &Reflect::get(&message, &"reply".into()).unwrap_or_default());
        }
    });
    port.on_message().add_listener(replies.as_ref().unchecked_ref());
    let kept = Rc::new(Kept { port: port.clone(), waiting: RefCell::new(BTreeMap::new()), _replies: replies });
    let weak = Rc::downgrade(&kept);
    let closed = Closure::once_into_js(move || {
        // A page whose script does not listen closes the port with lastError set; read it so Chrome logs nothing.
        let _ = runtime::take_last_error();
        if let Some(kept) = weak.upgrade() {
            close(tab_id, &kept);
        }
    });
    port.on_disconnect().add_listener(closed.unchecked_ref());
    PORTS.with(|p| p.borrow_mut().insert(tab_id, kept));
}

/// Forgets the tab's port (if it is still this one); its waiting reads get no reply.
fn close(tab_id: i32, kept: &Rc<Kept>) {
    PORTS.with(|p| {
        let mut ports = p.borrow_mut();
        if ports.get(&tab_id).is_some_and(|k| Rc::ptr_eq(k, kept)) {
            ports.remove(&tab_id);
        }
    });
    let waiting = std::mem::take(&mut *kept.waiting.borrow_mut());
    for resolve in waiting.into_values() {
        let _ = resolve.call0(&JsValue::UNDEFINED);
    }
}
