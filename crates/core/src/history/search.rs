//! The History view's search: every word the user typed must be in the item's title, its page's
//! host or its page's title, in any case.

use super::Summary;

pub fn matches(item: &Summary, query: &str) -> bool {
    let page = item.page.as_ref().map(|p| format!("{} {}", p.host(), p.title)).unwrap_or_default();
    let hay = format!("{} {page}", item.title).to_lowercase();
    query.to_lowercase().split_whitespace().all(|w| hay.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{ItemKind, PageRef};

    fn item(title: &str, url: &str, page_title: &str) -> Summary {
        let page = Some(PageRef { url: url.into(), title: page_title.into() });
        Summary { id: "x".into(), kind: ItemKind::Chat, title: title.into(), page, created_ms: 0.0, updated_ms: 0.0, bytes: 0 }
    }

    #[test]
    fn every_word_must_be_in_the_title_or_the_page() {
        let s = item("When does Alpha ship?", "https://news.example/a", "Alpha facts");
        assert!(matches(&s, ""), "an empty search keeps everything");
        assert!(matches(&s, "alpha"));
        assert!(matches(&s, "SHIP news.example"));
        assert!(matches(&s, "facts"));
        assert!(!matches(&s, "alpha beta"), "every word counts");
        assert!(!matches(&item("Other", "https://x.example/", ""), "alpha"));
    }
}
