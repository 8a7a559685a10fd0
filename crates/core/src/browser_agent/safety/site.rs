//! What "another site" means: two URLs are on one site when their hosts share the registrable
//! part (a browser's "site": scheme and port don't matter). IP addresses and single-label hosts
//! such as `localhost` are a site each.

/// The URL's host, lower case, without user, port or IPv6 brackets.
pub fn host(url: &str) -> Option<String> {
    let rest = url.trim().split_once("://")?.1;
    let authority = rest.split(['/', '?', '#', '\\']).next()?;
    let authority = authority.rsplit('@').next()?;
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => authority.split(':').next()?,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

fn is_ip(host: &str) -> bool {
    host.contains(':') || (host.split('.').count() == 4 && host.split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())))
}

/// The registrable part of a host: its last two labels, or three under a two-letter country code
/// whose second level is a short generic label (`bbc.co.uk`, `abc.net.au`). No public-suffix list:
/// the approximation errs towards smaller sites, which asks more, never less.
pub fn site_of_host(host: &str) -> String {
    if is_ip(host) {
        return host.to_string();
    }
    let labels: Vec<&str> = host.split('.').collect();
    let n = labels.len();
    let keep = if n >= 3 && labels[n - 1].len() == 2 && matches!(labels[n - 2], "co" | "com" | "net" | "org" | "gov" | "edu" | "ac" | "or" | "ne" | "go") {
        3
    } else {
        2
    };
    labels[n.saturating_sub(keep)..].join(".")
}

/// The site of a web URL, e.g. `bank.example` for `https://www.bank.example:8443/a`.
pub fn site_of(url: &str) -> Option<String> {
    let lower = url.trim().to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return None;
    }
    host(url).map(|h| site_of_host(&h))
}

pub fn same_site(a: &str, b: &str) -> bool {
    matches!((site_of(a), site_of(b)), (Some(x), Some(y)) if x == y)
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
            looks_like_host(&h).then_some(h)
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
fn looks_like_host(h: &str) -> bool {
    if h == "localhost" || is_ip(h) && !h.contains(':') {
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
    fn a_task_names_hosts_urls_and_addresses_not_files_or_sentences() {
        assert_eq!(sites_named("Open example.org's contact page, then https://docs.rs/serde."), vec!["example.org", "docs.rs"]);
        assert_eq!(sites_named("compare with localhost:8080/x and 127.0.0.2"), vec!["localhost", "127.0.0.2"]);
        assert_eq!(sites_named("What is my account email? Read it. Version 1.2 is out"), Vec::<String>::new());
        assert_eq!(sites_named("go to www.news.example.com"), vec!["example.com"]);
    }
}
