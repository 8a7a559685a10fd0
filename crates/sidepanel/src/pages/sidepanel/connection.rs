//! The `chat` port to the worker, reopened when the worker restarts.

use dusk_chrome::message::{from_js, to_js};
use dusk_chrome::runtime::{self, Port};
use dusk_core::protocol::{ChatEvent, ChatPortRequest, CHAT_PORT};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

type Handler = Rc<dyn Fn(Result<ChatEvent, String>)>;

/// A port that reconnects lazily; `on_event` also hears `Err` when the worker went away.
#[derive(Clone)]
pub struct Connection {
    port: Rc<RefCell<Option<Port>>>,
    on_event: Handler,
}

impl Connection {
    pub fn new(on_event: impl Fn(Result<ChatEvent, String>) + 'static) -> Self {
        Connection { port: Rc::new(RefCell::new(None)), on_event: Rc::new(on_event) }
    }

    pub fn send(&self, request: &ChatPortRequest) -> Result<(), JsValue> {
        let port = self.port()?;
        if port.post_message(&to_js(request)).is_err() {
            // The port died between messages: open a fresh one and try once more.
            self.port.borrow_mut().take();
            self.port()?.post_message(&to_js(request))?;
        }
        Ok(())
    }

    fn port(&self) -> Result<Port, JsValue> {
        if let Some(p) = self.port.borrow().as_ref() {
            return Ok(p.clone());
        }
        let port = runtime::connect(CHAT_PORT)?;
        let handler = self.on_event.clone();
        let on_message = Closure::<dyn Fn(JsValue)>::new(move |m: JsValue| handler(from_js::<ChatEvent>(m)));
        port.on_message().add_listener(on_message.as_ref().unchecked_ref());
        on_message.forget();
        let (slot, handler) = (self.port.clone(), self.on_event.clone());
        let on_disconnect = Closure::<dyn Fn()>::new(move || {
            slot.borrow_mut().take();
            handler(Err("disconnected".into()));
        });
        port.on_disconnect().add_listener(on_disconnect.as_ref().unchecked_ref());
        on_disconnect.forget();
        *self.port.borrow_mut() = Some(port.clone());
        Ok(port)
    }
}
