//! Frames of other origins, which the top frame's layer can't reach (payment, login and comment
//! forms often live there). Each gets its own page layer; its elements are listed after the top
//! document's, in an index range of their own (slot × `FRAME_INDEX`), marked with the frame's
//! site, and every request that names such an index goes to that frame with its own index.

use super::BrowserSession;
use crate::browser_agent::browser::{Browser, FrameView};
use crate::browser_agent::safety::site::site_of;
use crate::protocol::page::{ElementFilter, ElementInfo};
use crate::protocol::{ContentRequest, ContentResponse};
use serde_json::Value;

/// A frame's elements are listed from `slot × FRAME_INDEX`: far above any top document's.
pub const FRAME_INDEX: u32 = 100_000;

/// Every `index` and `indices` number in a request, wherever it sits (`target.index` too).
fn indices_in(v: &Value, out: &mut Vec<u32>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("index", Value::Number(n)) => out.extend(n.as_u64().map(|n| n as u32)),
                    ("indices" | "missing", Value::Array(list)) => out.extend(list.iter().filter_map(Value::as_u64).map(|n| n as u32)),
                    _ => indices_in(v, out),
                }
            }
        }
        Value::Array(list) => list.iter().for_each(|v| indices_in(v, out)),
        _ => {}
    }
}

/// The same, each number moved by `f`.
fn map_indices(v: &mut Value, f: &impl Fn(u32) -> u32) {
    match v {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                match (k.as_str(), v) {
                    ("index", Value::Number(n)) => *n = n.as_u64().map_or(n.clone(), |i| f(i as u32).into()),
                    ("indices" | "missing", Value::Array(list)) => list.iter_mut().for_each(|i| *i = i.as_u64().map_or(i.clone(), |n| f(n as u32).into())),
                    (_, v) => map_indices(v, f),
                }
            }
        }
        Value::Array(list) => list.iter_mut().for_each(|v| map_indices(v, f)),
        _ => {}
    }
}

fn moved<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T, f: impl Fn(u32) -> u32) -> Option<T> {
    let mut v = serde_json::to_value(value).ok()?;
    map_indices(&mut v, &f);
    crate::protocol::from_value(v).ok()
}

/// `(in frame from pay.example)`: where the element lives, as the listing prints it.
fn frame_context(frame: &FrameView) -> String {
    format!("frame from {}", site_of(&frame.url).unwrap_or_else(|| frame.url.clone()))
}

impl<B: Browser> BrowserSession<'_, B> {
    /// The frame a listed index lives in, with the frame's own index; None for the top document.
    pub fn frame_of(&self, index: u32) -> Option<(FrameView, u32)> {
        let slot = (index / FRAME_INDEX) as usize;
        let frame = self.frames.borrow().get(slot.checked_sub(1)?).cloned()?;
        Some((frame, index % FRAME_INDEX))
    }

    /// Sends `request` where its indices live: the top frame, or one other-origin frame.
    pub(super) async fn routed_rpc(&self, request: ContentRequest) -> Result<ContentResponse, String> {
        let mut all = Vec::new();
        indices_in(&serde_json::to_value(&request).unwrap_or_default(), &mut all);
        let slots: Vec<u32> = {
            let mut s: Vec<u32> = all.iter().map(|i| i / FRAME_INDEX).collect();
            s.sort_unstable();
            s.dedup();
            s
        };
        match slots.as_slice() {
            [] | [0] => self.browser.rpc(self.tab(), request).await,
            [slot] => self.frame_rpc(*slot, &request).await,
            _ => match request {
                ContentRequest::GetElementDetails { indices } => self.details_across(indices).await,
                _ => Err("those elements are in different frames; act on one frame at a time".into()),
            },
        }
    }

    async fn frame_rpc(&self, slot: u32, request: &ContentRequest) -> Result<ContentResponse, String> {
        let base = slot * FRAME_INDEX;
        let Some((frame, _)) = self.frame_of(base) else {
            return Err(format!("element {} is not on the page (its frame is gone); call get_elements", base + 1));
        };
        let local = moved(request, |i| i - base).ok_or("the request could not be sent to its frame")?;
        let answer = self.browser.frame_rpc(self.tab(), frame.frame_id, local).await?;
        Ok(moved(&answer, |i| i + base).unwrap_or(answer))
    }

    /// Details of indices from several frames: each frame asked for its own, the answers joined.
    async fn details_across(&self, indices: Vec<u32>) -> Result<ContentResponse, String> {
        let (mut details, mut missing) = (Vec::new(), Vec::new());
        let mut slots: Vec<u32> = indices.iter().map(|i| i / FRAME_INDEX).collect();
        slots.sort_unstable();
        slots.dedup();
        for slot in slots {
            let mine: Vec<u32> = indices.iter().copied().filter(|i| i / FRAME_INDEX == slot).collect();
            let request = ContentRequest::GetElementDetails { indices: mine.clone() };
            let answer = if slot == 0 { self.browser.rpc(self.tab(), request).await } else { self.frame_rpc(slot, &request).await };
            match answer {
                Ok(ContentResponse::ElementDetails { details: d, missing: m }) => {
                    details.extend(d);
                    missing.extend(m);
                }
                _ => missing.extend(mine),
            }
        }
        Ok(ContentResponse::ElementDetails { details, missing })
    }

    /// The elements of the tab's other-origin frames, after the top document's: each frame keeps
    /// its slot while it lives, and a frame that can't answer is left out of the listing.
    pub(super) async fn frame_elements(&self, filter: ElementFilter, visible_only: bool, limit: u32) -> (Vec<ElementInfo>, u32) {
        let Ok(now) = self.browser.frames(self.tab()).await else { return (vec![], 0) };
        {
            let mut frames = self.frames.borrow_mut();
            for f in &now {
                match frames.iter_mut().find(|k| k.frame_id == f.frame_id) {
                    Some(known) => known.url = f.url.clone(),
                    None => frames.push(f.clone()),
                }
            }
        }
        let (mut out, mut total) = (Vec::new(), 0);
        for f in now {
            let Some(slot) = self.frames.borrow().iter().position(|k| k.frame_id == f.frame_id).map(|p| p as u32 + 1) else { continue };
            let request = ContentRequest::GetElements { filter, visible_only, limit, offset: 0 };
            if let Ok(ContentResponse::Elements { elements, total: n, .. }) = self.frame_rpc(slot, &request).await {
                let context = frame_context(&f);
                out.extend(elements.into_iter().map(|mut e| {
                    e.context = Some(context.clone());
                    e.container = e.container.map(|c| c + slot * FRAME_INDEX);
                    e
                }));
                total += n;
            }
        }
        (out, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::actions::Target;

    #[test]
    fn indices_are_found_and_moved_wherever_a_request_holds_them() {
        let click = ContentRequest::TypeText { target: Target::index(100_004), text: "hi".into(), clear: false, at: None };
        let mut found = Vec::new();
        indices_in(&serde_json::to_value(&click).unwrap(), &mut found);
        assert_eq!(found, vec![100_004]);
        let local = moved(&click, |i| i - 100_000).unwrap();
        assert_eq!(local, ContentRequest::TypeText { target: Target::index(4), text: "hi".into(), clear: false, at: None });
        let details = moved(&ContentRequest::GetElementDetails { indices: vec![200_001, 200_009] }, |i| i - 200_000).unwrap();
        assert_eq!(details, ContentRequest::GetElementDetails { indices: vec![1, 9] });
    }
}
