//! Sites a URL carries inside itself: an address in its path, query or fragment
//! (`/go?to=http://evil.example/verify`), plain or percent-encoded. An open redirect on an allowed
//! site takes the browser there, so the card names that site before the request leaves.

use super::site::{has_known_suffix, host, looks_like_host, site_of, site_of_host};
use percent_encoding::percent_decode_str;

/// Encoded layers read through: `%253A` is `%3A` is `:`.
const MAX_DECODES: usize = 3;
/// Characters that end an address written inside another URL.
const AUTHORITY_END: &[char] = &['/', '?', '#', '\\', '"', '\'', '<', '>', '&', ';', ',', '|', ' ', '\t', '\n', ')', '(', '[', ']'];

/// The sites other than the URL's own that its path, query or fragment names as an address.
pub fn sites_carried(url: &str) -> Vec<String> {
    let Some(own) = site_of(url) else { return vec![] };
    let Some(parsed) = super::web_url::parse(url) else { return vec![] };
    let path = parsed.path;
    let rest = format!("{}#{}", parsed.query, parsed.fragment);
    let mut out: Vec<String> = Vec::new();
    // With a scheme any host name counts; without, only one under a suffix the list knows.
    let mut add = |h: Option<String>, schemeless: bool| {
        if let Some(site) = h.filter(|h| is_address(h, schemeless)).map(|h| site_of_host(&h)) {
            if site != own && !out.contains(&site) {
                out.push(site);
            }
        }
    };
    for (text, in_query) in layers(&path).into_iter().map(|t| (t, false)).chain(layers(&rest).into_iter().map(|t| (t, true))) {
        // `http://host`, `https:/\host`, `//host`: an address with its scheme or protocol-relative.
        for (i, _) in text.match_indices("//").chain(text.match_indices("\\\\")).chain(text.match_indices(":/\\")) {
            let after = text[i + 2..].trim_start_matches(['/', '\\']);
            let authority = after.split(AUTHORITY_END).next().unwrap_or_default();
            add(host(&format!("http://{authority}")), false);
        }
        // A query or fragment value that starts with a host name: `?next=evil.example/verify`.
        if in_query {
            for value in text.split(['&', ';', '#', '?']).filter_map(|kv| kv.split_once('=').map(|(_, v)| v)) {
                let head = value.trim().split(AUTHORITY_END).next().unwrap_or_default();
                let name = head.rsplit('@').next().unwrap_or(head).split(':').next().unwrap_or_default().to_ascii_lowercase();
                if looks_like_host(&name) {
                    add(host(&format!("http://{name}")), true);
                }
            }
        }
    }
    out
}

/// An address a browser would go to: an IP, `localhost`, or a dotted name (under a suffix the
/// list knows, when it was written without a scheme).
fn is_address(host: &str, schemeless: bool) -> bool {
    let ip = host.contains(':') || host.parse::<std::net::Ipv4Addr>().is_ok();
    ip || host == "localhost" || (looks_like_host(host) && (!schemeless || has_known_suffix(host)))
}

/// The text as written, then each percent-decoded layer under it.
fn layers(text: &str) -> Vec<String> {
    let mut out = vec![text.to_string()];
    for _ in 0..MAX_DECODES {
        let last = out.last().map(String::as_str).unwrap_or_default();
        let next = percent_decode_str(&last.replace('+', " ")).decode_utf8_lossy().into_owned();
        if next == last {
            break;
        }
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_inside_a_url_is_found_plain_or_encoded() {
        let cases = [
            "http://127.0.0.1:8000/go?to=http://localhost:9000/verify?email=x",
            "http://127.0.0.1:8000/go?to=http%3A%2F%2Flocalhost%3A9000%2Fverify",
            "http://127.0.0.1:8000/go?to=http%253A%252F%252Flocalhost%253A9000",
            "http://127.0.0.1:8000/go?to=//localhost:9000/x",
            "http://127.0.0.1:8000/go?next=localhost:9000/verify",
            "http://127.0.0.1:8000/out/http://localhost/verify",
            "http://127.0.0.1:8000/go#to=https://user@localhost/x",
        ];
        for url in cases {
            assert_eq!(sites_carried(url), vec!["localhost"], "{url}");
        }
        assert_eq!(sites_carried("https://bank.duckdns.org/r?u=https://evil.duckdns.org/v"), vec!["evil.duckdns.org"]);
        assert_eq!(sites_carried("https://bank.example/r?u=evil.com%2Fverify"), vec!["evil.com"]);
        assert_eq!(sites_carried("https://bank.example/r?u=https%3A%2F%2Fevil.example"), vec!["evil.example"]);
        assert_eq!(sites_carried("https://bank.example/r?u=evil.example"), Vec::<String>::new(), "no scheme and no known suffix");
    }

    #[test]
    fn own_site_file_names_and_plain_words_are_not_addresses() {
        for url in [
            "https://www.bank.example/go?to=https://bank.example/home",
            "https://bank.example/docs/index.html?file=report.pdf&v=1.2",
            "https://bank.example/a//b?q=hello+world",
            "https://bank.example/wiki/Example.com",
            "https://bank.example/search?q=what+is+a.b",
        ] {
            assert_eq!(sites_carried(url), Vec::<String>::new(), "{url}");
        }
    }
}
