//! How a link's target is printed for a model: a path on the same origin, `#x` on the same page,
//! the whole URL where the site changes. Safety rules and cards keep the resolved URL.

/// `scheme://host:port` of an absolute http(s) URL, lower-cased; None for other schemes.
fn origin(url: &str) -> Option<(String, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    Some((format!("{}://{}", scheme.to_ascii_lowercase(), authority.to_ascii_lowercase()), tail))
}

/// Path and query without the fragment.
fn without_fragment(tail: &str) -> &str {
    tail.split('#').next().unwrap_or(tail)
}

/// `href` as the listing shows it on the page at `page_url`.
pub fn shown_href(href: &str, page_url: &str) -> String {
    let (Some((to, tail)), Some((here, page_tail))) = (origin(href), origin(page_url)) else { return href.to_string() };
    if to != here {
        return href.to_string();
    }
    let path = if tail.is_empty() { "/" } else { tail };
    match path.split_once('#') {
        Some((before, fragment)) if !fragment.is_empty() && norm(before) == norm(without_fragment(page_tail)) => format!("#{fragment}"),
        _ => path.to_string(),
    }
}

/// An empty path is the root.
fn norm(path: &str) -> &str {
    if path.is_empty() {
        "/"
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_origin_links_are_paths_and_anchors_fragments() {
        let page = "http://127.0.0.1:43903/wiki/Firefox?x=1#Top";
        assert_eq!(shown_href("http://127.0.0.1:43903/wiki/Chrome", page), "/wiki/Chrome");
        assert_eq!(shown_href("http://127.0.0.1:43903/wiki/Firefox?x=1#History", page), "#History");
        assert_eq!(shown_href("http://127.0.0.1:43903/wiki/Firefox#History", page), "/wiki/Firefox#History", "another query is another page");
        assert_eq!(shown_href("HTTP://127.0.0.1:43903", page), "/");
        assert_eq!(shown_href("http://127.0.0.1:43903/#", "http://127.0.0.1:43903/"), "/#");
    }

    #[test]
    fn another_origin_or_scheme_keeps_the_whole_url() {
        let page = "https://shop.example/cart";
        assert_eq!(shown_href("https://pay.example/checkout", page), "https://pay.example/checkout");
        assert_eq!(shown_href("http://shop.example/cart", page), "http://shop.example/cart", "the scheme is part of the origin");
        assert_eq!(shown_href("https://shop.example:8443/a", page), "https://shop.example:8443/a");
        assert_eq!(shown_href("mailto:a@b.example", page), "mailto:a@b.example");
        assert_eq!(shown_href("javascript:void(0)", page), "javascript:void(0)");
        assert_eq!(shown_href("/a", "about:blank"), "/a");
    }
}
