//! `@mentions` in a question pick tabs by title or host.

use super::TabInfo;

/// Tabs named by `@word` tokens in `question` (matched against title words and host, case-insensitively).
pub fn mentioned_tabs(question: &str, tabs: &[TabInfo]) -> Vec<TabInfo> {
    let tokens: Vec<String> = question
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != '-').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    tabs.iter()
        .filter(|t| {
            let title = t.title.to_lowercase();
            let host = host_of(&t.url);
            tokens.iter().any(|tok| title.contains(tok.as_str()) || host.contains(tok.as_str()))
        })
        .cloned()
        .collect()
}

fn host_of(url: &str) -> String {
    url.split("://").nth(1).unwrap_or(url).split(['/', '?', '#']).next().unwrap_or("").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_match_title_or_host() {
        let tabs = vec![
            TabInfo { tab_id: 1, title: "Rust Blog".into(), url: "https://blog.rust-lang.org/x".into() },
            TabInfo { tab_id: 2, title: "Weather".into(), url: "https://example.com/w".into() },
        ];
        let ids = |q: &str| mentioned_tabs(q, &tabs).iter().map(|t| t.tab_id).collect::<Vec<_>>();
        assert_eq!(ids("compare @rust and @weather"), [1, 2]);
        assert_eq!(ids("what about @example.com?"), [2]);
        assert_eq!(ids("no mentions here"), Vec::<i32>::new());
    }
}
