//! Cross-origin stylesheets: the page won't let the content script read their rules, so the
//! worker fetches their text. This decides what may be fetched and what counts as a stylesheet.

/// Bigger sheets are left with their own colours rather than held in memory.
pub const MAX_CSS_BYTES: usize = 4 * 1024 * 1024;

/// A hanging server can't hold a page's switch longer than this.
pub const FETCH_TIMEOUT_MS: u32 = 5_000;

/// Why a sheet's text was not fetched or not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotHttp,
    /// A public page's content script asked for a loopback or private-network address.
    PrivateTarget,
    /// The asking frame's document doesn't link or import that sheet.
    NotLinked,
    Status(u16),
    NotCss(String),
    TooBig,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotHttp => write!(f, "only http(s) stylesheets are fetched"),
            Refusal::PrivateTarget => write!(f, "a public page may not have Dusk fetch from a loopback or private-network address"),
            Refusal::NotLinked => write!(f, "the page does not link or import this stylesheet"),
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

fn host_of(url: &str) -> Option<String> {
    let rest = url.trim().split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next()?
    } else {
        host.rsplit_once(':').map_or(host, |(h, p)| if p.chars().all(|c| c.is_ascii_digit()) { h } else { host })
    };
    Some(host.to_ascii_lowercase())
}

/// Loopback, private-network, link-local and local-name hosts: what a public page must not reach.
pub fn is_private_host(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") || host.ends_with(".local") || host.ends_with(".internal") || host.is_empty() {
        return true;
    }
    if let Ok(ip) = host.parse::<std::net::Ipv4Addr>() {
        return ip.is_loopback()
            || ip.is_private()
            || ip.is_link_local()
            || ip.is_unspecified()
            || ip.octets()[0] == 0
            || (ip.octets()[0] == 100 && (64..128).contains(&ip.octets()[1]));
    }
    if let Ok(ip) = host.parse::<std::net::Ipv6Addr>() {
        let first = ip.segments()[0];
        return ip.is_loopback()
            || ip.is_unspecified()
            || (first & 0xfe00) == 0xfc00
            || (first & 0xffc0) == 0xfe80
            || ip.to_ipv4_mapped().is_some_and(|v4| is_private_host(&v4.to_string()));
    }
    false
}

/// A sheet `css_url` asked for by a frame showing `page_url`: a public page may not reach private addresses.
pub fn may_fetch_for(page_url: &str, css_url: &str) -> Result<(), Refusal> {
    may_fetch(css_url)?;
    let page_private = host_of(page_url).is_none_or(|h| is_private_host(&h));
    let target_private = host_of(css_url).is_none_or(|h| is_private_host(&h));
    if target_private && !page_private {
        return Err(Refusal::PrivateTarget);
    }
    Ok(())
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
    fn public_pages_cannot_reach_private_addresses() {
        for host in [
            "localhost",
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.1",
            "172.20.0.5",
            "169.254.1.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "printer.local",
            "100.64.0.1",
        ] {
            assert!(is_private_host(host), "{host}");
        }
        for host in ["cdn.example", "8.8.8.8", "172.32.0.1", "2606:4700::1111"] {
            assert!(!is_private_host(host), "{host}");
        }
        assert_eq!(may_fetch_for("https://news.example/a", "http://192.168.1.1/admin.css"), Err(Refusal::PrivateTarget));
        assert_eq!(may_fetch_for("https://news.example/a", "http://[::1]:8080/x.css"), Err(Refusal::PrivateTarget));
        assert_eq!(may_fetch_for("https://news.example/a", "https://user@127.0.0.1:9/x.css"), Err(Refusal::PrivateTarget));
        assert_eq!(may_fetch_for("https://news.example/a", "https://cdn.example/x.css"), Ok(()));
        assert_eq!(may_fetch_for("http://127.0.0.1:3000/", "http://localhost:3001/x.css"), Ok(()), "a local page may use local sheets");
        assert_eq!(may_fetch_for("http://192.168.1.5/", "https://cdn.example/x.css"), Ok(()));
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
