//! A URL as the browser reads it (WHATWG: percent-encoding, backslashes, `user@` parts, IDN, IPv4
//! in any spelling). The worker hands core the browser's own `URL`; native builds use the `url`
//! crate, the same standard, so the rules are tested without a browser and the worker's wasm
//! carries no second parser.

use std::sync::OnceLock;

/// The parts of a URL the site rules read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebUrl {
    /// Without the colon: `https`.
    pub scheme: String,
    /// Lower case, punycode, IPv6 without brackets, no trailing dot.
    pub host: String,
    pub port: Option<u16>,
    pub path: String,
    /// Without the `?`.
    pub query: String,
    /// Without the `#`.
    pub fragment: String,
}

pub type Parser = fn(&str) -> Option<WebUrl>;

static PARSER: OnceLock<Parser> = OnceLock::new();

/// The worker's: the browser's own parser.
pub fn use_parser(parser: Parser) {
    let _ = PARSER.set(parser);
}

/// `url` parsed as the browser would; None when it isn't a URL (or, in wasm, no parser was given).
pub fn parse(url: &str) -> Option<WebUrl> {
    #[cfg(not(target_arch = "wasm32"))]
    if PARSER.get().is_none() {
        return native(url.trim());
    }
    PARSER.get()?(url.trim()).map(|mut u| {
        u.host = u.host.trim_start_matches('[').trim_end_matches(']').trim_end_matches('.').to_ascii_lowercase();
        u
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn native(url: &str) -> Option<WebUrl> {
    let u = url::Url::parse(url).ok()?;
    let host = match u.host()? {
        url::Host::Domain(d) => d.trim_end_matches('.').to_string(),
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => ip.to_string(),
    };
    Some(WebUrl {
        scheme: u.scheme().to_string(),
        host,
        port: u.port(),
        path: u.path().to_string(),
        query: u.query().unwrap_or_default().to_string(),
        fragment: u.fragment().unwrap_or_default().to_string(),
    })
}
