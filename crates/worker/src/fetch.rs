//! `fetch` with a streamed body, abort and timeout, for the service worker. Bindings only.

use js_sys::{Promise, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal, Headers, ReadableStreamDefaultReader, RequestInit, Response, WorkerGlobalScope};

pub fn scope() -> WorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: u32) {
    let promise = Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
    });
    let _ = JsFuture::from(promise).await;
}

/// `fut`'s output, or None when `ms` pass first (the future is left to finish on its own).
pub async fn within<T: 'static>(ms: u32, fut: impl std::future::Future<Output = T> + 'static) -> Option<T> {
    let slot = std::rc::Rc::new(std::cell::RefCell::new(None));
    let filled = slot.clone();
    let done = wasm_bindgen_futures::future_to_promise(async move {
        *filled.borrow_mut() = Some(fut.await);
        Ok(JsValue::TRUE)
    });
    let limit = wasm_bindgen_futures::future_to_promise(async move {
        sleep(ms).await;
        Ok(JsValue::FALSE)
    });
    let _ = JsFuture::from(Promise::race(&js_sys::Array::of2(&done, &limit))).await;
    let out = slot.borrow_mut().take();
    out
}

/// A response whose body is read chunk by chunk as it arrives.
pub struct StreamedResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    reader: Option<ReadableStreamDefaultReader>,
}

impl StreamedResponse {
    /// A header's value, looked up case-insensitively.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone())
    }

    /// The next body chunk, `None` at the end; an abort or a dropped connection is an error.
    pub async fn next_chunk(&mut self) -> Option<Result<Vec<u8>, JsValue>> {
        let reader = self.reader.as_ref()?;
        let result = match JsFuture::from(reader.read()).await {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        if Reflect::get(&result, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            self.reader = None;
            return None;
        }
        let value = Reflect::get(&result, &"value".into()).unwrap_or(JsValue::UNDEFINED);
        Some(Ok(value.dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default()))
    }
}

/// Starts a request; `signal` aborts it, including while the body is still streaming.
pub async fn fetch(method: &str, url: &str, headers: &[(String, String)], body: &str, signal: &AbortSignal) -> Result<StreamedResponse, JsValue> {
    let h = Headers::new()?;
    for (k, v) in headers {
        h.append(k, v)?;
    }
    let init = RequestInit::new();
    init.set_method(method);
    init.set_headers(&h);
    if !body.is_empty() {
        init.set_body(&JsValue::from_str(body));
    }
    init.set_signal(Some(signal));
    let response: Response = JsFuture::from(scope().fetch_with_str_and_init(url, &init)).await?.dyn_into()?;
    let mut out = Vec::new();
    if let Ok(Some(iter)) = js_sys::try_iter(&response.headers()) {
        for pair in iter.flatten() {
            let pair: js_sys::Array = pair.unchecked_into();
            out.push((pair.get(0).as_string().unwrap_or_default(), pair.get(1).as_string().unwrap_or_default()));
        }
    }
    let reader = response.body().map(|b| b.get_reader().unchecked_into::<ReadableStreamDefaultReader>());
    Ok(StreamedResponse { status: response.status(), headers: out, reader })
}

/// An AbortController that also fires after `timeout_ms`.
pub fn controller_with_timeout(timeout_ms: u32) -> Result<AbortController, JsValue> {
    let controller = AbortController::new()?;
    let c = controller.clone();
    let abort = wasm_bindgen::closure::Closure::once_into_js(move || c.abort_with_reason(&JsValue::from_str("timeout")));
    scope().set_timeout_with_callback_and_timeout_and_arguments_0(abort.unchecked_ref(), timeout_ms as i32)?;
    Ok(controller)
}
