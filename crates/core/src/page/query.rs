//! Heuristic semantic matching of a plain description ("navigation sidebar", "search input")
//! against an element's tag, role, ARIA label, class/id tokens, text and position.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    Top,
    Bottom,
    Side,
}

/// A family of words and the element features that express it.
struct Concept {
    words: &'static [&'static str],
    tags: &'static [&'static str],
    roles: &'static [&'static str],
    tokens: &'static [&'static str],
    input_types: &'static [&'static str],
    position: Option<Position>,
}

const fn c(
    words: &'static [&'static str],
    tags: &'static [&'static str],
    roles: &'static [&'static str],
    tokens: &'static [&'static str],
    input_types: &'static [&'static str],
    position: Option<Position>,
) -> Concept {
    Concept { words, tags, roles, tokens, input_types, position }
}

const CONCEPTS: &[Concept] = &[
    c(&["navigation", "nav", "navbar", "menu", "menubar"], &["nav"], &["navigation", "menubar", "menu"], &["nav", "navigation", "navbar", "menu"], &[], None),
    c(&["sidebar", "side", "aside", "toc"], &["aside"], &["complementary"], &["sidebar", "side", "aside", "toc", "sphinxsidebar"], &[], Some(Position::Side)),
    c(&["header", "banner", "masthead", "top"], &["header"], &["banner"], &["header", "masthead", "topbar", "banner"], &[], Some(Position::Top)),
    c(&["footer", "bottom"], &["footer"], &["contentinfo"], &["footer"], &[], Some(Position::Bottom)),
    c(&["main", "content", "article", "body"], &["main", "article"], &["main", "article"], &["main", "content", "article", "body", "document"], &[], None),
    c(
        &["code", "codeblock", "snippet", "snippets", "pre", "source"],
        &["pre", "code"],
        &[],
        &["code", "highlight", "snippet", "sourcecode", "codeblock", "listing"],
        &[],
        None,
    ),
    c(&["search", "find"], &[], &["search", "searchbox"], &["search", "query", "q"], &["search"], None),
    c(
        &["input", "field", "textbox", "box", "entry"],
        &["input", "textarea"],
        &["textbox", "searchbox", "combobox"],
        &["input", "field"],
        &["text", "search", "email", "password", "url", "tel", "number"],
        None,
    ),
    c(&["button", "buttons", "btn"], &["button"], &["button"], &["btn", "button"], &["button", "submit", "reset"], None),
    c(&["link", "links", "anchor"], &["a"], &["link"], &["link"], &[], None),
    c(&["heading", "headings", "title", "headline"], &["h1", "h2", "h3", "h4", "h5", "h6"], &["heading"], &["title", "heading"], &[], None),
    c(&["image", "images", "picture", "photo", "logo", "icon"], &["img", "svg", "picture"], &["img"], &["logo", "icon", "image", "img", "avatar"], &[], None),
    c(&["table", "grid"], &["table"], &["table", "grid"], &["table", "grid"], &[], None),
    c(&["form"], &["form"], &["form"], &["form"], &[], None),
    c(&["list", "items"], &["ul", "ol", "dl"], &["list"], &["list"], &[], None),
    c(&["dialog", "modal", "popup", "overlay"], &["dialog"], &["dialog", "alertdialog"], &["modal", "dialog", "popup", "overlay"], &[], None),
    c(&["tab", "tabs"], &[], &["tab", "tablist"], &["tab", "tabs"], &[], None),
    c(&["checkbox", "checkboxes", "tickbox"], &[], &["checkbox"], &["checkbox"], &["checkbox"], None),
    c(&["dropdown", "select", "combobox", "picker"], &["select"], &["listbox", "combobox"], &["dropdown", "select"], &[], None),
    c(&["quote", "blockquote", "citation"], &["blockquote"], &[], &["quote"], &[], None),
    c(&["paragraph", "paragraphs", "text"], &["p"], &["paragraph"], &[], &[], None),
    c(&["login", "signin", "password"], &[], &[], &["login", "signin", "password"], &["password"], None),
    c(&["breadcrumb", "breadcrumbs"], &[], &[], &["breadcrumb", "breadcrumbs", "crumbs"], &[], None),
];

const STOPWORDS: &[&str] = &[
    "the", "a", "an", "of", "on", "in", "for", "with", "and", "or", "to", "that", "this", "all", "any", "page", "element", "elements", "area", "section",
    "block", "blocks", "part",
];

/// A parsed description: concept indices, leftover words and quoted phrases.
#[derive(Debug, Clone, Default)]
pub struct Query {
    concepts: Vec<usize>,
    words: Vec<String>,
    pub phrases: Vec<String>,
}

/// Everything scoring reads from one element; strings lower-cased by the caller or here.
#[derive(Debug, Clone, Default)]
pub struct Features {
    pub tag: String,
    pub role: String,
    pub id: String,
    pub class: String,
    pub label: String,
    pub input_type: String,
    /// The element's own short text (direct text nodes), for quoted phrases.
    pub text: String,
    pub position: Option<Position>,
}

/// Splits `sidebarNav item-list` into `sidebar nav item list`.
pub fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for ch in s.chars() {
        if !ch.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = ch.is_lowercase();
        cur.push(super::case::lower_char(ch));
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn singular(w: &str) -> &str {
    w.strip_suffix('s').filter(|s| s.len() > 2).unwrap_or(w)
}

impl Query {
    pub fn parse(description: &str) -> Query {
        let mut q = Query::default();
        let mut rest = String::new();
        for (i, part) in description.split('"').enumerate() {
            if i % 2 == 1 {
                let p = part.split_whitespace().collect::<Vec<_>>().join(" ");
                if !p.is_empty() {
                    q.phrases.push(p);
                }
            } else {
                rest.push_str(part);
                rest.push(' ');
            }
        }
        for word in tokens(&rest) {
            if STOPWORDS.contains(&word.as_str()) {
                continue;
            }
            let found = CONCEPTS.iter().position(|c| c.words.contains(&word.as_str()) || c.words.contains(&singular(&word)));
            match found {
                Some(i) if !q.concepts.contains(&i) => q.concepts.push(i),
                Some(_) => {}
                None => q.words.push(word),
            }
        }
        q
    }

    pub fn is_empty(&self) -> bool {
        self.concepts.is_empty() && self.words.is_empty() && self.phrases.is_empty()
    }

    /// A CSS selector list that finds every element that could score, so the DOM side need not walk everything.
    pub fn candidate_selector(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let attr = |t: &str| format!("[class*=\"{t}\" i],[id*=\"{t}\" i],[aria-label*=\"{t}\" i]");
        for &i in &self.concepts {
            let c = &CONCEPTS[i];
            parts.extend(c.tags.iter().map(|t| t.to_string()));
            parts.extend(c.roles.iter().map(|r| format!("[role=\"{r}\"]")));
            parts.extend(c.input_types.iter().map(|t| format!("input[type=\"{t}\" i]")));
            parts.extend(c.tokens.iter().filter(|t| t.len() > 1).map(|t| attr(t)));
        }
        for w in self.words.iter().filter(|w| w.chars().all(|c| c.is_alphanumeric())) {
            parts.push(attr(w));
            parts.push(format!("[placeholder*=\"{w}\" i],[name*=\"{w}\" i],[title*=\"{w}\" i]"));
        }
        parts.join(",")
    }

    /// Scores one element; 0 means no match. Reasons say which features matched.
    pub fn score(&self, f: &Features) -> (f64, Vec<String>) {
        let mut score = 0.0;
        let mut reasons = Vec::new();
        let toks: Vec<String> = tokens(&format!("{} {}", f.id, f.class));
        let label = super::case::lower(&f.label);
        let mut matched_concepts = 0;
        for &i in &self.concepts {
            let c = &CONCEPTS[i];
            let mut hits: Vec<(f64, String)> = Vec::new();
            // The first tag is the concept's canonical element (pre over code, h1 over h6).
            if let Some(pos) = c.tags.iter().position(|t| *t == f.tag) {
                hits.push((if pos == 0 { 3.0 } else { 2.5 }, format!("tag={}", f.tag)));
            }
            if !f.role.is_empty() && c.roles.contains(&f.role.as_str()) {
                hits.push((3.0, format!("role={}", f.role)));
            }
            if !f.input_type.is_empty() && f.tag == "input" && c.input_types.contains(&f.input_type.as_str()) {
                hits.push((2.5, format!("type={}", f.input_type)));
            }
            if let Some(t) = toks.iter().find(|t| c.tokens.contains(&t.as_str())) {
                hits.push((2.0, format!("class/id~{t}")));
            }
            if let Some(w) = c.words.iter().find(|w| w.len() > 2 && label.contains(*w)) {
                hits.push((2.0, format!("label~{w}")));
            }
            if c.position.is_some() && c.position == f.position && !hits.is_empty() {
                hits.push((1.0, "position".into()));
            }
            let hits = super::rank::best_first(hits, |h| (h.0, 0.0));
            if let Some((best, _)) = hits.first() {
                matched_concepts += 1;
                score += best + 0.5 * (hits.len() - 1) as f64;
                reasons.extend(hits.into_iter().map(|h| h.1));
            }
        }
        for w in &self.words {
            if toks.iter().any(|t| t == w) {
                score += 1.5;
                reasons.push(format!("class/id~{w}"));
            } else if label.contains(w.as_str()) {
                score += 1.5;
                reasons.push(format!("label~{w}"));
            }
        }
        let text = super::case::lower(&f.text.split_whitespace().collect::<Vec<_>>().join(" "));
        for p in &self.phrases {
            let p = super::case::lower(p);
            if text == p {
                score += 5.0;
                reasons.push("text=".to_string() + &p);
            } else if text.contains(&p) {
                score += 2.0;
                reasons.push("text~".to_string() + &p);
            }
        }
        // Elements that match every concept beat ones that match one strongly.
        if self.concepts.len() > 1 && matched_concepts == self.concepts.len() {
            score += 1.0;
        }
        (score, reasons)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(tag: &str, role: &str, id: &str, class: &str) -> Features {
        Features { tag: tag.into(), role: role.into(), id: id.into(), class: class.into(), ..Features::default() }
    }

    #[test]
    fn tokenises_class_names() {
        assert_eq!(tokens("sidebarNav item-list  q"), vec!["sidebar", "nav", "item", "list", "q"]);
    }

    #[test]
    fn navigation_sidebar_prefers_an_element_with_both() {
        let q = Query::parse("the navigation sidebar");
        let both = q.score(&f("div", "navigation", "", "sphinxsidebar")).0;
        let nav_only = q.score(&f("nav", "", "", "")).0;
        let none = q.score(&f("div", "", "", "content")).0;
        assert!(both > nav_only && nav_only > none, "{both} {nav_only} {none}");
        assert_eq!(none, 0.0);
    }

    #[test]
    fn code_blocks_and_search_inputs() {
        let q = Query::parse("code blocks");
        assert!(q.score(&f("pre", "", "", "")).0 > q.score(&f("code", "", "", "")).0);
        assert!(q.score(&f("div", "", "", "highlight-python")).0 > 0.0);
        let q = Query::parse("search input");
        let search = Features { input_type: "search".into(), ..f("input", "", "", "") };
        let text = Features { input_type: "text".into(), ..f("input", "", "", "") };
        assert!(q.score(&search).0 > q.score(&text).0);
        assert!(q.candidate_selector().contains("input[type=\"search\" i]"));
    }

    #[test]
    fn quoted_phrases_match_text() {
        let q = Query::parse("link \"Sign up\"");
        assert_eq!(q.phrases, vec!["Sign up".to_string()]);
        let exact = Features { text: " sign   up ".into(), ..f("span", "", "", "") };
        let partial = Features { text: "Sign up now".into(), ..f("span", "", "", "") };
        assert!(q.score(&exact).0 > q.score(&partial).0);
    }

    #[test]
    fn unknown_words_match_tokens_and_labels() {
        let q = Query::parse("cart");
        assert!(q.score(&f("div", "", "shopping-cart", "")).0 > 0.0);
        let labelled = Features { label: "Open cart".into(), ..f("button", "", "", "") };
        assert!(q.score(&labelled).0 > 0.0);
        assert!(Query::parse("the").is_empty());
    }
}
