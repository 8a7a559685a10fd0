//! Which elements count as interactive, how they are classified, and how their text is cut.

use crate::protocol::page::{ElementCounts, ElementFilter};

/// A broad, cheap-to-match net for elements a user can act on (plus images and frames);
/// `is_candidate` then drops what only matched by a non-interactive role or tabindex=-1.
pub const CANDIDATE_SELECTOR: &str =
    "a[href],area[href],button,input:not([type=hidden]),select,textarea,summary,img,iframe,frame,[role],[onclick],[tabindex],[contenteditable]";

const INTERACTIVE_ROLES: [&str; 17] = [
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "textbox",
    "searchbox",
    "combobox",
    "listbox",
    "slider",
    "spinbutton",
    "img",
];

/// What `is_candidate` needs to know about an element that is not a native control.
#[derive(Debug, Clone, Default)]
pub struct Extra<'a> {
    pub role: Option<&'a str>,
    pub tabindex: Option<&'a str>,
    pub onclick: bool,
    pub editable: bool,
}

/// Native controls always count; links only with an href; anything else by role, handler, tab stop or editability.
pub fn is_native(tag: &str, has_href: bool) -> bool {
    matches!(tag, "button" | "input" | "select" | "textarea" | "summary" | "img" | "iframe" | "frame") || (matches!(tag, "a" | "area") && has_href)
}

pub fn is_candidate(tag: &str, has_href: bool, extra: &Extra) -> bool {
    if is_native(tag, has_href) {
        return true;
    }
    let role = extra.role.map(str::trim).unwrap_or("");
    let tab_stop = extra.tabindex.and_then(|t| t.trim().parse::<i32>().ok()).is_some_and(|t| t >= 0);
    INTERACTIVE_ROLES.contains(&role) || extra.onclick || tab_stop || extra.editable
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Button,
    Input,
    Link,
    Select,
    Image,
    Frame,
    Other,
}

const BUTTON_INPUTS: [&str; 4] = ["button", "submit", "reset", "image"];

/// Classifies an element by tag (lower case), `type` attribute, `role` attribute and whether it has href.
pub fn classify(tag: &str, input_type: Option<&str>, role: Option<&str>, editable: bool) -> Kind {
    let role = role.map(str::trim).unwrap_or("");
    match role {
        "button" | "tab" | "menuitem" | "menuitemcheckbox" | "menuitemradio" | "switch" => return Kind::Button,
        "link" => return Kind::Link,
        "textbox" | "searchbox" | "combobox" | "spinbutton" | "slider" | "checkbox" | "radio" => return Kind::Input,
        "listbox" | "option" => return Kind::Select,
        "img" => return Kind::Image,
        _ => {}
    }
    match tag {
        "button" | "summary" => Kind::Button,
        "input" => {
            let t = input_type.unwrap_or("text").to_ascii_lowercase();
            if BUTTON_INPUTS.contains(&t.as_str()) {
                Kind::Button
            } else {
                Kind::Input
            }
        }
        "textarea" => Kind::Input,
        "a" | "area" => Kind::Link,
        "select" => Kind::Select,
        "img" | "svg" => Kind::Image,
        "iframe" | "frame" => Kind::Frame,
        _ if editable => Kind::Input,
        _ => Kind::Other,
    }
}

impl ElementFilter {
    pub fn accepts(self, kind: Kind) -> bool {
        match self {
            ElementFilter::All => true,
            ElementFilter::Button => kind == Kind::Button,
            ElementFilter::Input => kind == Kind::Input,
            ElementFilter::Link => kind == Kind::Link,
            ElementFilter::Select => kind == Kind::Select,
            ElementFilter::Image => kind == Kind::Image,
        }
    }
}

impl ElementCounts {
    pub fn add(&mut self, kind: Kind) {
        self.add_many(kind, 1);
    }

    /// Undoes one `add`, for an element first counted under its tag's kind.
    pub fn remove(&mut self, kind: Kind) {
        let slot = match kind {
            Kind::Button => &mut self.buttons,
            Kind::Input => &mut self.inputs,
            Kind::Link => &mut self.links,
            Kind::Select => &mut self.selects,
            Kind::Image => &mut self.images,
            Kind::Frame | Kind::Other => return,
        };
        *slot = slot.saturating_sub(1);
    }

    pub fn add_many(&mut self, kind: Kind, n: u32) {
        match kind {
            Kind::Button => self.buttons += n,
            Kind::Input => self.inputs += n,
            Kind::Link => self.links += n,
            Kind::Select => self.selects += n,
            Kind::Image => self.images += n,
            Kind::Frame | Kind::Other => {}
        }
    }
}

/// Collapses whitespace and cuts to `max` characters, ending with "…" when cut.
pub fn clean_text(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in s.split_whitespace() {
        let sep = usize::from(!out.is_empty());
        let len = word.chars().count();
        if count + sep + len > max {
            let room = max.saturating_sub(count + sep + 1);
            if room > 0 {
                if sep == 1 {
                    out.push(' ');
                }
                out.extend(word.chars().take(room));
            }
            out.push('…');
            return out;
        }
        if sep == 1 {
            out.push(' ');
        }
        out.push_str(word);
        count += sep + len;
    }
    out
}

/// Where an element's name may come from (`element_name`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamePart {
    /// The `type` attribute.
    Type,
    /// The `value` attribute.
    Value,
    /// The text of its `label[for]`, else of the label around it.
    Label,
    /// The text of the elements `aria-labelledby` names.
    LabelledBy,
    AriaLabel,
    Placeholder,
    Title,
    /// The text of a `label` without `for` just before it: how many hand-written forms label fields.
    PrevLabel,
    Name,
    Alt,
    Src,
    /// Its rendered text.
    Shown,
    /// The alt or aria-label of an image inside it (`<img alt>`, `<svg aria-label>`).
    Inner,
    /// The `<title>` of an SVG that is or is inside it.
    SvgTitle,
    /// The `href` of an SVG `<use>` inside it (`#icon-star`).
    Symbol,
    /// The text of an icon-font element (a class naming an icon font) that is or is inside it.
    Ligature,
    /// Its class, id and test id, then its descendants' classes, in page order.
    Words,
    /// The text of the heading (or legend, caption) just before it or first inside it.
    Heading,
}

/// An element's name, and whether it is a guess from an icon (symbol, ligature, class or id
/// words) rather than a name the page gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElementName {
    pub text: String,
    pub guess: bool,
}

/// The text an agent sees for an element, cut at `max` characters (see `naming`).
pub fn element_name(tag: &str, part: impl Fn(NamePart) -> Option<String>, max: usize) -> String {
    naming(tag, part, max).text
}

/// The one naming rule. A control's label or accessible name, an image's alt, or the element's
/// accessible name (aria-labelledby, aria-label, text); then its title, an image's alt or an
/// SVG's title inside it; then, as a guess, an icon's symbol, ligature, or class words. `part`
/// reads each source as the page has it, only when asked, so a caller reads no more than needed.
pub fn naming(tag: &str, part: impl Fn(NamePart) -> Option<String>, max: usize) -> ElementName {
    use super::icons::{action_word, ligature_name, symbol_name};
    use NamePart::*;
    let some = |p: NamePart| part(p).filter(|v| !v.trim().is_empty());
    let control = || [Label, LabelledBy, AriaLabel, Placeholder, Title, PrevLabel, Name].into_iter().find_map(some);
    let guess = |ligature: Option<String>| some(Symbol).and_then(|h| symbol_name(&h)).or(ligature).or_else(|| some(Words).and_then(|w| action_word(&w)));
    // `glyph`: shown text with no letter or digit ("«", "¶", "×") draws an icon, so a title or an
    // icon word names it better; it is kept only when nothing else does.
    let (real, ligature, glyph) = match tag {
        "input" => {
            let t = part(Type).unwrap_or_default().to_ascii_lowercase();
            let real = match t.as_str() {
                "button" | "submit" | "reset" => Some(part(Value).unwrap_or(t)),
                "image" => some(Alt).or_else(control),
                _ => control(),
            };
            (real, None, None)
        }
        "textarea" | "select" => (control(), None, None),
        "img" => ([AriaLabel, Alt, Title].into_iter().find_map(some), None, None),
        "iframe" | "frame" => ([Title, Src, Name].into_iter().find_map(some), None, None),
        _ => {
            let labelled = [LabelledBy, AriaLabel].into_iter().find_map(some);
            let (shown, ligature) = match labelled {
                Some(_) => (None, None),
                None => {
                    // An icon font draws its ligature's letters as the icon: "star_border" is not a
                    // label. The page layer leaves them out of text; a caller that keeps them gets them out here.
                    let shown = some(Shown);
                    let ligature = match &shown {
                        None => some(Ligature).and_then(|l| ligature_name(&l)),
                        Some(s) => ligature_name(s).filter(|_| some(Ligature).is_some()),
                    };
                    (shown.filter(|_| ligature.is_none()), ligature)
                }
            };
            let (shown, glyph) = match shown {
                Some(s) if !s.chars().any(char::is_alphanumeric) => (None, Some(s)),
                other => (other, None),
            };
            let real = labelled.or(shown).or_else(|| [Title, Inner, SvgTitle].into_iter().find_map(some));
            (real, Some(ligature), glyph)
        }
    };
    let name = |text: String, guess: bool| ElementName { text: clean_text(&text, max), guess };
    if let Some(text) = real {
        return name(text, false);
    }
    match ligature.map_or_else(|| some(Words).and_then(|w| action_word(&w)), guess) {
        Some(text) => name(text, true),
        None => glyph.map(|g| name(g, false)).unwrap_or_default(),
    }
}

/// A scroll box's name, for the line that says it holds more: its label or title, the heading
/// just before it or at its top, else its id or class read as words.
pub fn box_name(part: impl Fn(NamePart) -> Option<String>, max: usize) -> String {
    use NamePart::*;
    let some = |p: NamePart| part(p).filter(|v| !v.trim().is_empty());
    let raw = [LabelledBy, AriaLabel, Title, Heading].into_iter().find_map(some).or_else(|| some(Words).and_then(|w| super::icons::id_words(&w)));
    clean_text(&raw.unwrap_or_default(), max)
}

/// Which listed elements need the text of their row or card to be told apart: those with no
/// name, and, outside a listed container, those whose name (guessed or not) another such element
/// shares (links are told apart by their href).
pub fn needs_context(els: &[crate::protocol::page::ElementInfo]) -> Vec<bool> {
    // Only elements outside listed containers are counted: `in [12]` tells the others apart.
    let alone = |e: &&crate::protocol::page::ElementInfo| !e.text.is_empty() && e.href.is_none() && e.container.is_none();
    let mut seen = std::collections::HashMap::new();
    for e in els.iter().filter(alone) {
        *seen.entry(e.text.as_str()).or_insert(0u32) += 1;
    }
    els.iter().map(|e| e.text.is_empty() || (alone(&e) && seen.get(e.text.as_str()).is_some_and(|&n| n > 1))).collect()
}

/// Short description of an element for messages: `button#go "Submit"`.
pub fn describe(tag: &str, id: &str, text: &str) -> String {
    let mut s = tag.to_string();
    if !id.is_empty() {
        s.push('#');
        s.push_str(id);
    }
    let text = clean_text(text, 40);
    if !text.is_empty() {
        s.push_str(&format!(" \"{text}\""));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_first_source_that_says_something() {
        use NamePart::*;
        let name = |tag: &str, parts: &[(NamePart, &str)]| {
            let parts: Vec<(NamePart, String)> = parts.iter().map(|(p, v)| (*p, v.to_string())).collect();
            element_name(tag, |want| parts.iter().find(|(p, _)| *p == want).map(|(_, v)| v.clone()), 40)
        };
        assert_eq!(name("input", &[(Label, "Email"), (AriaLabel, "mail"), (Placeholder, "you@x")]), "Email");
        assert_eq!(name("input", &[(Label, "  "), (Placeholder, "you@x"), (Name, "email")]), "you@x", "a blank label says nothing");
        assert_eq!(name("select", &[(PrevLabel, "Country"), (Name, "c")]), "Country");
        assert_eq!(name("input", &[(Type, "SUBMIT"), (Value, "Send it"), (Label, "no")]), "Send it");
        assert_eq!(name("input", &[(Type, "reset")]), "reset");
        assert_eq!(name("img", &[(Alt, " "), (Title, "Logo")]), "Logo");
        assert_eq!(name("iframe", &[(Src, "https://x/ad")]), "https://x/ad");
        assert_eq!(name("button", &[(AriaLabel, "Close"), (Shown, "×")]), "Close");
        assert_eq!(name("a", &[(Shown, "  Read   more \n"), (Title, "t")]), "Read more");
        assert_eq!(name("div", &[(Shown, &"word ".repeat(20))]).chars().count(), 40, "cut at max");
        assert_eq!(name("div", &[(Shown, "«"), (Title, "Collapse sidebar")]), "Collapse sidebar", "a glyph loses to a title");
        assert_eq!(name("a", &[(Shown, "¶"), (Words, "headerlink")]), "¶", "a glyph is kept when nothing names it");
        assert_eq!(name("span", &[(Shown, "×"), (Words, "modal-close")]), "close", "an icon word beats a glyph");
    }

    #[test]
    fn scroll_boxes_are_named_by_label_heading_or_id() {
        use NamePart::*;
        let name = |parts: &[(NamePart, &str)]| box_name(|want| parts.iter().find(|(p, _)| *p == want).map(|(_, v)| v.to_string()), 30);
        assert_eq!(name(&[(AriaLabel, "Results"), (Heading, "Flights")]), "Results");
        assert_eq!(name(&[(Heading, " Flights  to Lisbon ")]), "Flights to Lisbon");
        assert_eq!(name(&[(Words, "results-list css-9x")]), "results list");
        assert_eq!(name(&[]), "");
    }

    #[test]
    fn context_is_wanted_where_names_do_not_tell_elements_apart() {
        use crate::protocol::page::ElementInfo;
        let e = |text: &str, guess: bool, href: bool, container: Option<u32>| ElementInfo {
            text: text.into(),
            guess,
            href: href.then(|| "http://x/".to_string()),
            container,
            ..Default::default()
        };
        let els = [
            e("", false, false, Some(3)),
            e("star", true, false, None),
            e("star", true, false, None),
            e("star", true, false, Some(3)),
            e("Reply", false, false, None),
            e("Reply", false, false, None),
            e("¶", false, true, None),
            e("¶", false, true, None),
            e("settings", true, false, None),
            e("Open calendar", false, false, None),
            e("Open calendar", false, false, Some(9)),
        ];
        assert_eq!(needs_context(&els), [true, true, true, false, true, true, false, false, false, false, false]);
    }

    #[test]
    fn classifies_by_role_then_tag() {
        assert_eq!(classify("input", Some("submit"), None, false), Kind::Button);
        assert_eq!(classify("input", None, None, false), Kind::Input);
        assert_eq!(classify("input", Some("CHECKBOX"), None, false), Kind::Input);
        assert_eq!(classify("div", None, Some("button"), false), Kind::Button);
        assert_eq!(classify("a", None, Some("tab"), false), Kind::Button);
        assert_eq!(classify("a", None, None, false), Kind::Link);
        assert_eq!(classify("div", None, None, true), Kind::Input);
        assert_eq!(classify("div", None, None, false), Kind::Other);
        assert_eq!(classify("iframe", None, None, false), Kind::Frame);
        assert!(ElementFilter::All.accepts(Kind::Other));
        assert!(!ElementFilter::Link.accepts(Kind::Button));
    }

    #[test]
    fn filters_the_broad_net() {
        let none = Extra::default();
        assert!(is_candidate("button", false, &none));
        assert!(is_candidate("a", true, &none));
        assert!(!is_candidate("a", false, &none));
        assert!(!is_candidate("nav", false, &Extra { role: Some("navigation"), ..Extra::default() }));
        assert!(is_candidate("div", false, &Extra { role: Some("button"), ..Extra::default() }));
        assert!(!is_candidate("main", false, &Extra { tabindex: Some("-1"), ..Extra::default() }));
        assert!(is_candidate("div", false, &Extra { tabindex: Some("0"), ..Extra::default() }));
        assert!(is_candidate("div", false, &Extra { onclick: true, ..Extra::default() }));
        assert!(is_candidate("div", false, &Extra { editable: true, ..Extra::default() }));
    }

    #[test]
    fn cleans_and_cuts_text() {
        assert_eq!(clean_text("  a \n b\t c ", 50), "a b c");
        assert_eq!(clean_text("hello world", 8), "hello w…");
        assert_eq!(clean_text("abcdefghij", 5), "abcd…");
        assert_eq!(clean_text("", 5), "");
        assert_eq!(clean_text("日本語のテキスト", 4), "日本語…");
        assert_eq!(describe("button", "go", "  Go  "), "button#go \"Go\"");
    }
}
