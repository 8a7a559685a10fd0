//! Which elements count as interactive, how they are classified, and how their text is cut;
//! their names come from `naming`.

use crate::protocol::page::{ElementCounts, ElementFilter};

/// A broad, cheap-to-match net for elements a user can act on (plus images and frames);
/// `is_candidate` then drops what only matched by a non-interactive role or tabindex=-1.
pub const CANDIDATE_SELECTOR: &str =
    "a[href],area[href],button,input:not([type=hidden]),select,textarea,summary,img,iframe,frame,[role],[onclick],[tabindex],[contenteditable],.ui-slider-handle,.noUi-handle";

/// Every attribute `CANDIDATE_SELECTOR` reads (`class` for its class names): while none of them
/// changed and no node was added or removed, its matches stay the same.
pub const CANDIDATE_ATTRIBUTES: [&str; 7] = ["href", "type", "role", "onclick", "tabindex", "contenteditable", "class"];

/// The role a widget library's element plays when it says none itself: jQuery UI's and
/// noUiSlider's slider handles.
pub fn widget_role(class: &str) -> Option<&'static str> {
    class.split_whitespace().any(|c| c == "ui-slider-handle" || c == "noUi-handle").then_some("slider")
}

/// The first number in a widget's shown text (`3` of "Value: 3"), as its value.
pub fn shown_number(text: &str) -> Option<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .map(|t| t.trim_end_matches(['.', '-']).trim_start_matches('.'))
        .find(|t| !t.is_empty() && super::number::parse_number(t).is_some())
        .map(str::to_string)
}

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
    /// A widget library's class names its role (`widget_role`).
    pub widget: bool,
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
    INTERACTIVE_ROLES.contains(&role) || extra.onclick || tab_stop || extra.editable || extra.widget
}

/// Controls whose image is their content: the image inside one is the control's, not a line of its own.
pub const IMAGE_HOLDERS: &str = "a[href],area[href],button,summary,label,[role=button],[role=link],[role=menuitem],[role=tab],[onclick]";

/// A field that only takes the focus for a widget drawn elsewhere, which a person never sees: a
/// pixel or two in size, or hidden from assistive tech and out of the tab order (a mirror).
pub fn is_focus_helper(tag: &str, input_type: Option<&str>, width: f64, height: f64, tabindex: Option<&str>, aria_hidden: bool) -> bool {
    let field = match tag {
        "textarea" | "select" => true,
        "input" => !input_type
            .map(str::to_ascii_lowercase)
            .is_some_and(|t| matches!(t.as_str(), "checkbox" | "radio" | "file" | "range" | "color") || BUTTON_INPUTS.contains(&t.as_str())),
        _ => false,
    };
    let tiny = width > 0.0 && height > 0.0 && (width <= 2.0 || height <= 2.0);
    let mirror = aria_hidden && tabindex.map(str::trim) == Some("-1");
    field && (tiny || mirror)
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
    fn focus_helpers_are_fields_no_one_sees() {
        assert!(is_focus_helper("input", None, 1.0, 1.0, Some("0"), false), "selectric's 1x1 focus input");
        assert!(is_focus_helper("select", None, 1.0, 1.0, Some("-1"), true), "Select2's hidden select");
        assert!(is_focus_helper("input", Some("text"), 200.0, 20.0, Some("-1"), true), "a mirror out of the tab order and hidden from assistive tech");
        assert!(!is_focus_helper("input", Some("text"), 200.0, 20.0, Some("-1"), false), "out of the tab order alone is a field");
        assert!(!is_focus_helper("input", Some("checkbox"), 1.0, 1.0, None, false), "a styled checkbox is clicked through its label");
        assert!(!is_focus_helper("button", None, 1.0, 1.0, None, false));
        assert!(!is_focus_helper("textarea", None, 0.0, 0.0, None, false), "not rendered: hidden, not a helper");
        assert!(!is_focus_helper("input", None, 180.0, 24.0, None, false));
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
    fn the_candidate_attributes_are_every_attribute_the_net_reads() {
        let mut read: Vec<&str> = CANDIDATE_SELECTOR.split('[').skip(1).map(|a| a.split([']', '=']).next().unwrap_or("")).collect();
        if CANDIDATE_SELECTOR.split(',').any(|s| s.contains('.')) {
            read.push("class");
        }
        read.sort_unstable();
        read.dedup();
        let mut listed = CANDIDATE_ATTRIBUTES.to_vec();
        listed.sort_unstable();
        assert_eq!(read, listed);
    }

    #[test]
    fn a_native_controls_kind_does_not_hang_on_editability() {
        // The page layer reads contenteditable only for what is not native: this must hold.
        for (tag, href) in [
            ("button", false),
            ("input", false),
            ("select", false),
            ("textarea", false),
            ("summary", false),
            ("img", false),
            ("iframe", false),
            ("frame", false),
            ("a", true),
            ("area", true),
        ] {
            assert!(is_native(tag, href), "{tag}");
            for role in [None, Some("slider"), Some("presentation")] {
                for ty in [None, Some("checkbox"), Some("submit")] {
                    assert_eq!(classify(tag, ty, role, true), classify(tag, ty, role, false), "{tag} {role:?} {ty:?}");
                }
            }
        }
        assert!(!is_native("a", false));
        assert_eq!(classify("div", None, None, true), Kind::Input);
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

    #[test]
    fn widgets_without_aria_get_a_role_and_a_value_from_what_they_show() {
        assert_eq!(widget_role("ui-slider-handle ui-corner-all ui-state-default"), Some("slider"));
        assert_eq!(widget_role("noUi-handle noUi-handle-lower"), Some("slider"));
        assert_eq!(widget_role("ui-slider"), None);
        assert!(is_candidate("span", false, &Extra { widget: true, ..Extra::default() }));
        assert_eq!(shown_number("Value: 3 Submit").as_deref(), Some("3"));
        assert_eq!(shown_number("-2.5 °C").as_deref(), Some("-2.5"));
        assert_eq!(shown_number("Pick one. Then go"), None);
    }
}
