//! set_files: puts files the user picked into an `<input type=file>`, as a drop of real files would.

use super::events::plain;
use super::{check_enabled, Outcome};
use crate::dom::{as_tag, window};
use crate::names::describe_el;
use crate::registry::{lookup, Lookup};
use dusk_core::protocol::actions::{ActionResult, FailReason, FilePayload, MAX_UPLOAD_BYTES};
use wasm_bindgen::JsValue;
use web_sys::{DataTransfer, Document, HtmlInputElement};

fn file(payload: &FilePayload) -> Result<JsValue, String> {
    let binary = window()?.atob(&payload.base64).map_err(|_| format!("{} is not valid base64", payload.name))?;
    let bytes: Vec<u8> = binary.chars().map(|c| c as u32 as u8).collect();
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes.as_slice()));
    let options = crate::dom::obj(&[("type", payload.mime.as_str().into())]);
    let ctor = js_sys::Reflect::get(&js_sys::global(), &"File".into()).map_err(|_| "this page has no File")?;
    let ctor: js_sys::Function = ctor.into();
    js_sys::Reflect::construct(&ctor, &js_sys::Array::of3(&parts, &payload.name.as_str().into(), &options)).map_err(|_| "could not build the file".into())
}

#[inline(never)]
pub fn set_files(_doc: &Document, index: u32, files: &[FilePayload]) -> Outcome<ActionResult> {
    let el = match lookup(index) {
        Lookup::Found(el) => el,
        Lookup::Stale => return Err(ActionResult::fail(FailReason::Stale, format!("element {index} is no longer on the page"))),
        Lookup::Unknown => return Err(ActionResult::fail(FailReason::NotFound, format!("no element has index {index}"))),
    };
    // A button, label or drop zone that opens a file input stands for it (read::faces).
    let el = crate::read::faces::file_input_of(&el).unwrap_or(el);
    let input = as_tag::<HtmlInputElement>(&el, "input")
        .filter(|i| i.type_().eq_ignore_ascii_case("file"))
        .ok_or_else(|| ActionResult::fail(FailReason::BadTarget, format!("{} is not a file input and opens none", describe_el(&el))))?;
    check_enabled(&el)?;
    if files.iter().map(FilePayload::size).sum::<usize>() > MAX_UPLOAD_BYTES {
        return Err(ActionResult::fail(FailReason::Rejected, "the files are larger than 5 MB"));
    }
    let transfer = DataTransfer::new().map_err(|_| ActionResult::fail(FailReason::Unsupported, "this page can't take files"))?;
    for f in files {
        let file = file(f).map_err(|m| ActionResult::fail(FailReason::Rejected, m))?;
        let items = js_sys::Reflect::get(&transfer, &"items".into()).unwrap_or(JsValue::NULL);
        let add = crate::dom::method(&items, "add").ok_or_else(|| ActionResult::fail(FailReason::Unsupported, "this page can't take files"))?;
        add.call1(&items, &file).map_err(|_| ActionResult::fail(FailReason::Rejected, format!("could not attach {}", f.name)))?;
    }
    input.set_files(transfer.files().as_ref());
    plain(input.as_ref(), "input");
    plain(input.as_ref(), "change");
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    Ok(ActionResult::ok(format!("attached {} to {}", names.join(", "), describe_el(&el))))
}
