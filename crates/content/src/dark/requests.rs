//! The dark layer's answers: the popup's switch and status, the dark agent's previews and measures.

use super::*;

/// Answers a dark-layer message given as JSON text.
pub fn reply(message: &str) -> String {
    let response = match crate::parse(message) {
        Ok(request) => handle_request(request),
        Err(message) => DarkContentResponse::Error { message },
    };
    crate::encode(&response)
}

/// Answers the popup's questions about this page, and the dark agent's previews and measures.
#[inline(never)]
pub(super) fn handle_request(request: DarkContentRequest) -> DarkContentResponse {
    match request {
        DarkContentRequest::DarkSwitch { on } => {
            with(|s| {
                if let Some(host) = s.host.clone() {
                    s.memory.set(&host, on);
                }
                if !s.memory_loaded {
                    s.switched_early = Some(on);
                }
            });
            sync();
        }
        DarkContentRequest::DarkStatus => {
            if with(|s| s.phase == PagePhase::Off && s.host.is_some()) {
                watch::after_reply(prepare);
            }
        }
        DarkContentRequest::DarkThemeMeasure { baseline, reset } => return theme_measure(baseline, reset),
        DarkContentRequest::DarkAdjust { adjust } => set_adjust(adjust.clamped(), true),
        DarkContentRequest::DarkThemePreview { css } => {
            return match dusk_core::protocol::caps::css_ok(&css).and_then(|()| preview(&css)).and_then(|()| measure(false)) {
                Ok(q) => DarkContentResponse::ThemeQuality(q),
                Err(message) => DarkContentResponse::Error { message },
            };
        }
    }
    status()
}

pub(super) fn measure(baseline: bool) -> Result<dusk_core::protocol::css::ThemeQuality, String> {
    let doc = document().ok_or("no document")?;
    quality::measure(&doc, baseline)
}

#[inline(never)]
pub(super) fn theme_measure(baseline: bool, reset: bool) -> DarkContentResponse {
    match (if reset { preview("") } else { Ok(()) }).and_then(|()| measure(baseline)) {
        Ok(mut q) => {
            if baseline {
                q.instant_css = instant_css_excerpt(3000);
            }
            DarkContentResponse::ThemeQuality(q)
        }
        Err(message) => DarkContentResponse::Error { message },
    }
}

#[inline(never)]
pub(super) fn status() -> DarkContentResponse {
    with(|s| {
        DarkContentResponse::DarkStatus(PageDarkStatus {
            host: s.host.clone().unwrap_or_default(),
            phase: s.phase,
            scopes: s.roots.len() as u32,
            css_bytes: s.installed.iter().map(|i| i.css.len() as u32).sum(),
            build_ms: s.last_build_ms,
            collect_ms: s.last_collect_ms,
        })
    })
}
