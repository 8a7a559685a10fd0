use dusk_core::protocol::{ContentRequest, ContentResponse};

pub fn handle(request: ContentRequest) -> ContentResponse {
    let Some(window) = web_sys::window() else {
        return ContentResponse::Error { message: "no window".into() };
    };
    let Some(document) = window.document() else {
        return ContentResponse::Error { message: "no document".into() };
    };
    match request {
        ContentRequest::Ping => ContentResponse::Pong {
            version: dusk_core::VERSION.to_string(),
            url: window.location().href().unwrap_or_default(),
        },
        ContentRequest::CountElements { selector } => match document.query_selector_all(&selector) {
            Ok(list) => ContentResponse::ElementCount { selector, count: list.length() },
            Err(_) => ContentResponse::Error { message: format!("invalid selector: {selector}") },
        },
    }
}
