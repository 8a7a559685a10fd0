//! What "another site" means, as Chrome decides it: the host as a WHATWG URL parser reads it (the
//! `url` crate: percent-encoding, backslashes, `user@` parts, IDN), and its registrable domain
//! under the Public Suffix List, private section included, so `alice.github.io` and
//! `mallory.github.io` are two sites. IP addresses, and hosts that are themselves public suffixes
//! (`localhost`, `duckdns.org`), are a site each. Scheme and port don't matter.

use super::web_url::{parse, WebUrl};
use publicsuffix::{List, Psl};
use std::sync::OnceLock;

static LIST: OnceLock<List> = OnceLock::new();

/// Reads the Public Suffix List's text once (the worker ships it as data, not code).
pub fn load_list(text: &str) -> Result<(), String> {
    if LIST.get().is_some() {
        return Ok(());
    }
    let list: List = text.parse().map_err(|e| format!("the public suffix list could not be read: {e}"))?;
    let _ = LIST.set(list);
    Ok(())
}

pub fn list_loaded() -> bool {
    LIST.get().is_some()
}

/// Native builds (tests, benches) carry the list; the worker reads the same file from the extension.
fn list() -> Option<&'static List> {
    #[cfg(not(target_arch = "wasm32"))]
    if LIST.get().is_none() {
        let _ = load_list(include_str!("../../../data/public_suffix_list.dat"));
    }
    LIST.get()
}

/// A web URL (http or https) as the browser parses it.
fn web_url(url: &str) -> Option<WebUrl> {
    parse(url).filter(|u| matches!(u.scheme.as_str(), "http" | "https"))
}

/// The URL's host, as the browser reads it: lower case, without user, port or IPv6 brackets.
pub fn host(url: &str) -> Option<String> {
    parse(url).map(|u| u.host).filter(|h| !h.is_empty())
}

fn is_ip(host: &str) -> bool {
    host.contains(':') || host.parse::<std::net::Ipv4Addr>().is_ok()
}

/// The registrable part of a host (its site), e.g. `bank.example` for `www.bank.example`.
pub fn site_of_host(host: &str) -> String {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if is_ip(&host) {
        return host;
    }
    // Without the list every host is its own site: that asks more, never less.
    match list().and_then(|l| l.domain(host.as_bytes())) {
        Some(d) => String::from_utf8_lossy(d.as_bytes()).into_owned(),
        None => host,
    }
}

/// The host ends in a suffix the list names (`.com`, `.duckdns.org`), not in `.html` or `.pdf`.
pub fn has_known_suffix(host: &str) -> bool {
    list().and_then(|l| l.suffix(host.as_bytes())).is_some_and(|s| s.is_known())
}

/// The site of a web URL, e.g. `bank.example` for `https://www.bank.example:8443/a`.
pub fn site_of(url: &str) -> Option<String> {
    web_url(url).filter(|u| !u.host.is_empty()).map(|u| site_of_host(&u.host))
}

pub fn same_site(a: &str, b: &str) -> bool {
    matches!((site_of(a), site_of(b)), (Some(x), Some(y)) if x == y)
}

/// A host name as the browser would read it from `text` typed without a scheme.
fn host_in(text: &str) -> Option<String> {
    host(&format!("http://{text}"))
}

/// Sites the user's own words name: URLs, host names (`example.org`, `example.org's`,
/// `localhost:8080`) and IPv4 addresses.
pub fn sites_named(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in text.split(|c: char| c.is_whitespace() || "\"'`()<>[]{},;|“”‘’«»".contains(c)) {
        let token = raw.trim_end_matches(['.', ':', '!', '?']);
        let host = if token.contains("://") {
            host(token)
        } else {
            let h = token.split(['/', '?', '#']).next().unwrap_or_default();
            let h = h.strip_suffix("'s").or_else(|| h.strip_suffix("’s")).unwrap_or(h);
            let h = h.split(':').next().unwrap_or_default().to_ascii_lowercase();
            looks_like_host(&h).then(|| host_in(&h)).flatten()
        };
        if let Some(site) = host.map(|h| site_of_host(&h)) {
            if !out.contains(&site) {
                out.push(site);
            }
        }
    }
    out
}

/// `localhost`, an IPv4 address, or dotted labels ending in an alphabetic top-level label.
pub fn looks_like_host(h: &str) -> bool {
    if h == "localhost" || h.parse::<std::net::Ipv4Addr>().is_ok() {
        return true;
    }
    let labels: Vec<&str> = h.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && labels.last().is_some_and(|t| t.len() >= 2 && t.chars().all(|c| c.is_ascii_alphabetic()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_compare_registrable_parts_and_ips_whole() {
        assert!(same_site("https://www.shop.example/a", "http://shop.example:8080/b"));
        assert!(!same_site("https://shop.example/", "https://evil.example/"));
        assert!(!same_site("http://127.0.0.1:80/", "http://127.0.0.2:80/"), "IPs are whole, not their last two labels");
        assert!(!same_site("http://10.0.0.1/", "http://192.168.0.1/"));
        assert!(!same_site("http://127.0.0.1:8000/", "http://localhost:8000/"));
        assert!(!same_site("https://a.co.uk/", "https://b.co.uk/"), "a country's second level is not one site");
        assert!(same_site("https://news.bbc.co.uk/", "https://www.bbc.co.uk/"));
        assert!(!same_site("javascript:alert(1)", "javascript:alert(1)"));
        assert_eq!(host("https://user:pw@Evil.Example.:8443/x?y#z").as_deref(), Some("evil.example"));
        assert_eq!(host("http://[::1]:8080/").as_deref(), Some("::1"));
        assert_eq!(site_of("http://evil.example\\@bank.example/").as_deref(), Some("evil.example"));
    }

    #[test]
    fn private_suffixes_make_their_subdomains_sites_of_their_own() {
        assert!(!same_site("http://bank.duckdns.org/", "http://evil.duckdns.org/"));
        assert!(same_site("http://www.bank.duckdns.org/", "http://bank.duckdns.org:8080/"));
        assert!(!same_site("https://alice.github.io/", "https://mallory.github.io/"));
        assert_eq!(site_of("http://duckdns.org/").as_deref(), Some("duckdns.org"), "a suffix itself is one site");
        assert_eq!(site_of("http://localhost:9000/").as_deref(), Some("localhost"));
    }

    #[test]
    fn hosts_are_read_as_the_browser_reads_them() {
        assert_eq!(site_of("http://%65vil.example/").as_deref(), Some("evil.example"), "percent-encoded host");
        assert_eq!(site_of("http://EVIL.example@bank.example/").as_deref(), Some("bank.example"), "user@ is not the host");
        assert_eq!(site_of("http://bank.example@evil.example/").as_deref(), Some("evil.example"));
        assert_eq!(site_of("https:evil.example/x").as_deref(), Some("evil.example"), "no slashes, still a host");
        assert_eq!(site_of("http://0x7f.1/").as_deref(), Some("127.0.0.1"), "IPv4 in other spellings");
        assert_eq!(site_of("http://xn--bcher-kva.example/").as_deref(), Some("xn--bcher-kva.example"));
        assert_eq!(site_of("http://BÜCHER.example/").as_deref(), Some("xn--bcher-kva.example"), "IDN as punycode");
        assert_eq!(site_of("ftp://evil.example/"), None, "only web pages");
    }

    #[test]
    fn known_suffixes_tell_hosts_from_file_names() {
        assert!(has_known_suffix("evil.example.com") && has_known_suffix("x.duckdns.org"));
        assert!(!has_known_suffix("index.html") && !has_known_suffix("report.pdf"));
    }

    #[test]
    fn a_task_names_hosts_urls_and_addresses_not_files_or_sentences() {
        assert_eq!(sites_named("Open example.org's contact page, then https://docs.rs/serde."), vec!["example.org", "docs.rs"]);
        assert_eq!(sites_named("compare with localhost:8080/x and 127.0.0.2"), vec!["localhost", "127.0.0.2"]);
        assert_eq!(sites_named("What is my account email? Read it. Version 1.2 is out"), Vec::<String>::new());
        assert_eq!(sites_named("go to www.news.example.com"), vec!["example.com"]);
        assert_eq!(sites_named("check bank.duckdns.org"), vec!["bank.duckdns.org"]);
    }
}
