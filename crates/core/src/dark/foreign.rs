//! Cross-origin stylesheets: the page won't let the content script read their rules, so the
//! worker fetches their text. This decides what may be fetched and what counts as a stylesheet.

/// Bigger sheets are left with their own colours rather than held in memory.
pub const MAX_CSS_BYTES: usize = 4 * 1024 * 1024;

/// Why a sheet's text was not fetched or not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotHttp,
    Status(u16),
    NotCss(String),
    TooBig,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotHttp => write!(f, "only http(s) stylesheets are fetched"),
            Refusal::Status(s) => write!(f, "the server answered {s}"),
            Refusal::NotCss(t) => write!(f, "not a stylesheet (content-type {t:?})"),
            Refusal::TooBig => write!(f, "the stylesheet is over {} MB", MAX_CSS_BYTES / (1024 * 1024)),
        }
    }
}

/// Only web stylesheets are fetched: no file:, data:, chrome: or extension URLs.
pub fn may_fetch(url: &str) -> Result<(), Refusal> {
    let lower = url.trim().to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        Ok(())
    } else {
        Err(Refusal::NotHttp)
    }
}

/// Checks a response before its body is used: a stylesheet, answered 2xx, of sane size.
/// A missing content-type is accepted, as browsers accept it for stylesheets in quirks mode.
pub fn check_response(status: u16, content_type: Option<&str>, length: Option<usize>) -> Result<(), Refusal> {
    if !(200..300).contains(&status) {
        return Err(Refusal::Status(status));
    }
    if let Some(t) = content_type {
        let essence = t.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if !essence.is_empty() && essence != "text/css" {
            return Err(Refusal::NotCss(essence));
        }
    }
    if length.is_some_and(|n| n > MAX_CSS_BYTES) {
        return Err(Refusal::TooBig);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_urls_are_fetched() {
        assert_eq!(may_fetch("https://cdn.example/site.css"), Ok(()));
        assert_eq!(may_fetch("HTTP://127.0.0.1:8080/a.css"), Ok(()));
        for url in ["file:///etc/passwd", "data:text/css,a{}", "chrome://settings/x.css", "chrome-extension://id/a.css", ""] {
            assert_eq!(may_fetch(url), Err(Refusal::NotHttp), "{url}");
        }
    }

    #[test]
    fn only_stylesheets_of_sane_size_are_used() {
        assert_eq!(check_response(200, Some("text/css; charset=utf-8"), Some(10)), Ok(()));
        assert_eq!(check_response(200, None, None), Ok(()));
        assert_eq!(check_response(404, Some("text/css"), None), Err(Refusal::Status(404)));
        assert_eq!(check_response(200, Some("text/html"), None), Err(Refusal::NotCss("text/html".into())));
        assert_eq!(check_response(200, Some("text/css"), Some(MAX_CSS_BYTES + 1)), Err(Refusal::TooBig));
        assert!(Refusal::NotCss("text/html".into()).to_string().contains("text/html"));
    }
}
