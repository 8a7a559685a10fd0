//! Binds core's on-device requests to Chrome's `LanguageModel` (the Prompt API), which extension
//! service workers expose. Calls only: core shaped the request and judges every answer.

use base64::Engine;
use dusk_chrome::message::to_js;
use dusk_core::llm::on_device::shape::availability_options;
use dusk_core::llm::on_device::{Availability, ContextUse, PromptRequest};
use dusk_core::llm::{no_on_device_model, PromptReply, TransportError};
use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, Blob, BlobPropertyBag, ReadableStreamDefaultReader};

/// `globalThis.LanguageModel`, looked up at each call (it may appear or go at any time).
fn api() -> Option<JsValue> {
    let v = Reflect::get(&js_sys::global(), &"LanguageModel".into()).ok()?;
    (!v.is_undefined() && !v.is_null()).then_some(v)
}

fn call(target: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(target, &name.into())?.dyn_into()?;
    f.apply(target, &args.iter().copied().collect::<Array>())
}

async fn call_async(target: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let promise = call(target, name, args)?;
    JsFuture::from(js_sys::Promise::resolve(&promise)).await
}

fn text_of(v: &JsValue, key: &str) -> String {
    Reflect::get(v, &key.into()).ok().and_then(|s| s.as_string()).unwrap_or_default()
}

/// A rejection as core reads it; an abort through our signal is Stop or the timeout.
fn failure(signal: &AbortSignal, e: &JsValue) -> TransportError {
    if signal.aborted() {
        return if signal.reason().as_string().as_deref() == Some("timeout") { TransportError::Timeout } else { TransportError::Aborted };
    }
    let name = text_of(e, "name");
    let message = text_of(e, "message");
    if name.is_empty() && message.is_empty() {
        return TransportError::OnDevice { name: "UnknownError".into(), message: dusk_chrome::message::error_text(e) };
    }
    TransportError::OnDevice { name, message }
}

/// What `LanguageModel.availability()` says for the inputs Dusk sends.
pub async fn availability(vision: bool) -> Availability {
    let Some(api) = api() else { return Availability::Absent };
    match call_async(&api, "availability", &[&to_js(&availability_options(vision))]).await {
        Ok(v) => Availability::parse(&v.as_string().unwrap_or_default()),
        Err(_) => Availability::Unavailable,
    }
}

/// Replaces each image content's base64 value with a Blob, which `ImageBitmapSource` accepts.
fn images_to_blobs(messages: &JsValue) -> Result<(), JsValue> {
    for m in Array::from(messages).iter() {
        for c in Array::from(&Reflect::get(&m, &"content".into())?).iter() {
            if text_of(&c, "type") != "image" {
                continue;
            }
            let image = Reflect::get(&c, &"value".into())?;
            let bytes = base64::engine::general_purpose::STANDARD.decode(text_of(&image, "data")).map_err(|e| JsValue::from_str(&e.to_string()))?;
            let parts = Array::of1(&Uint8Array::from(bytes.as_slice()));
            let bag = BlobPropertyBag::new();
            bag.set_type(&text_of(&image, "mime_type"));
            let blob: JsValue = Blob::new_with_u8_array_sequence_and_options(&parts, &bag)?.into();
            Reflect::set(&c, &"value".into(), &blob)?;
        }
    }
    Ok(())
}

fn messages(list: &impl serde::Serialize) -> Result<JsValue, JsValue> {
    let v = to_js(list);
    images_to_blobs(&v)?;
    Ok(v)
}

fn with_signal(signal: &AbortSignal) -> Object {
    let o = Object::new();
    let _ = Reflect::set(&o, &"signal".into(), signal);
    o
}

/// One prompt on a fresh session, destroyed when the reply ends or is dropped (Stop).
pub struct Session {
    session: JsValue,
    reader: Option<ReadableStreamDefaultReader>,
    whole: Option<String>,
    signal: AbortSignal,
    context: Option<ContextUse>,
    destroyed: bool,
}

impl Session {
    fn finish(&mut self) {
        let number = |key: &str| Reflect::get(&self.session, &key.into()).ok().and_then(|v| v.as_f64());
        if let (Some(used), Some(window)) = (number("contextUsage"), number("contextWindow")) {
            self.context = ContextUse::from_attributes(used, window);
        }
        self.destroy();
    }

    fn destroy(&mut self) {
        if !self.destroyed {
            self.destroyed = true;
            let _ = call(&self.session, "destroy", &[]);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.destroy();
    }
}

/// Availability, `create({initialPrompts, expectedInputs, expectedOutputs, signal})`, `append`,
/// then `promptStreaming` (or `prompt`).
pub async fn prompt(request: PromptRequest, signal: &AbortSignal) -> Result<Session, TransportError> {
    let api = api().ok_or_else(no_on_device_model)?;
    let vision = request.expected_inputs.iter().any(|e| e.kind == "image");
    match availability(vision).await {
        Availability::Available => {}
        other => return Err(TransportError::NotReady(other)),
    }
    let fail = |e: JsValue| failure(signal, &e);
    let options = with_signal(signal);
    Reflect::set(&options, &"initialPrompts".into(), &messages(&request.initial_prompts).map_err(fail)?).map_err(fail)?;
    Reflect::set(&options, &"expectedInputs".into(), &to_js(&request.expected_inputs)).map_err(fail)?;
    Reflect::set(&options, &"expectedOutputs".into(), &to_js(&request.expected_outputs)).map_err(fail)?;
    let session = call_async(&api, "create", &[&options]).await.map_err(fail)?;
    let mut out = Session { session, reader: None, whole: None, signal: signal.clone(), context: None, destroyed: false };
    if !request.append.is_empty() {
        let append = messages(&request.append).map_err(fail)?;
        call_async(&out.session, "append", &[&append, &with_signal(signal)]).await.map_err(fail)?;
    }
    let input = messages(&request.input).map_err(fail)?;
    if request.stream {
        let stream = call(&out.session, "promptStreaming", &[&input, &with_signal(signal)]).map_err(fail)?;
        let reader = call(&stream, "getReader", &[]).map_err(fail)?;
        out.reader = Some(reader.unchecked_into());
    } else {
        let text = call_async(&out.session, "prompt", &[&input, &with_signal(signal)]).await.map_err(fail)?;
        out.whole = Some(text.as_string().unwrap_or_default());
    }
    Ok(out)
}

impl PromptReply for Session {
    async fn next_delta(&mut self) -> Option<Result<String, TransportError>> {
        if let Some(text) = self.whole.take() {
            return Some(Ok(text));
        }
        let Some(reader) = self.reader.as_ref() else {
            if !self.destroyed {
                self.finish();
            }
            return None;
        };
        let result = match JsFuture::from(reader.read()).await {
            Ok(r) => r,
            Err(e) => {
                self.reader = None;
                let e = failure(&self.signal, &e);
                self.destroy();
                return Some(Err(e));
            }
        };
        if Reflect::get(&result, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            self.reader = None;
            self.finish();
            return None;
        }
        Some(Ok(Reflect::get(&result, &"value".into()).ok().and_then(|v| v.as_string()).unwrap_or_default()))
    }

    fn context(&self) -> Option<ContextUse> {
        self.context
    }
}
