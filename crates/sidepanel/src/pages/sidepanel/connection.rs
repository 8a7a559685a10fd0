//! A long-lived port to the worker (`chat` or `agent`), reopened when the worker restarts.

use dusk_chrome::message::{from_js, to_js};
use dusk_chrome::runtime::{self, Port};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

type Handler<E> = Rc<dyn Fn(Result<E, String>)>;

/// A port that reconnects lazily; `on_event` also hears `Err` when the worker went away.
pub struct Connection<Req, E> {
    name: &'static str,
    port: Rc<RefCell<Option<Port>>>,
    on_event: Handler<E>,
    request: PhantomData<Req>,
}

impl<Req, E> Clone for Connection<Req, E> {
    fn clone(&self) -> Self {
        Connection { name: self.name, port: self.port.clone(), on_event: self.on_event.clone(), request: PhantomData }
    }
}

impl<Req: Serialize, E: DeserializeOwned + 'static> Connection<Req, E> {
    pub fn new(name: &'static str, on_event: impl Fn(Result<E, String>) + 'static) -> Self {
        Connection { name, port: Rc::new(RefCell::new(None)), on_event: Rc::new(on_event), request: PhantomData }
    }

    pub fn send(&self, request: &Req) -> Result<(), JsValue> {
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
        let port = runtime::connect(self.name)?;
        let handler = self.on_event.clone();
        let on_message = Closure::<dyn Fn(JsValue)>::new(move |m: JsValue| handler(from_js::<E>(m)));
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
