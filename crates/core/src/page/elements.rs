//! Which elements count as interactive, how they are classified, and how their text is cut.

use crate::protocol::page::{ElementCounts, ElementFilter};

/// Elements a user can act on, plus images; the content script also walks open shadow roots and frames.
pub const CANDIDATE_SELECTOR: &str = "a[href],area[href],button,input:not([type=hidden]),select,textarea,summary,img,svg[role=img],\
iframe,frame,[contenteditable]:not([contenteditable=false]),[role=button],[role=link],[role=checkbox],[role=radio],\
[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=textbox],\
[role=searchbox],[role=combobox],[role=listbox],[role=slider],[role=spinbutton],[role=img],[onclick],\
[tabindex]:not([tabindex='-1'])";

/// One selector per kind, so page_summary can count natively instead of classifying each element;
/// a role overrides the tag, as in `classify`.
pub const COUNT_SELECTORS: [(Kind, &str); 5] = [
    (Kind::Button, "button:not([role]),summary:not([role]),input:is([type=button],[type=submit],[type=reset],[type=image]):not([role]),\
[role=button],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=switch]"),
    (Kind::Link, "a[href]:not([role]),area[href]:not([role]),[role=link]"),
    (Kind::Input, "input:not([type=button],[type=submit],[type=reset],[type=image],[type=hidden],[role]),textarea:not([role]),\
[contenteditable]:not([contenteditable=false],[role],input,textarea,button,a,select),[role=textbox],[role=searchbox],[role=combobox],\
[role=spinbutton],[role=slider],[role=checkbox],[role=radio]"),
    (Kind::Select, "select:not([role]),[role=listbox],[role=option]"),
    (Kind::Image, "img:not([role]),svg[role=img],[role=img]"),
];

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
    fn cleans_and_cuts_text() {
        assert_eq!(clean_text("  a \n b\t c ", 50), "a b c");
        assert_eq!(clean_text("hello world", 8), "hello w…");
        assert_eq!(clean_text("abcdefghij", 5), "abcd…");
        assert_eq!(clean_text("", 5), "");
        assert_eq!(clean_text("日本語のテキスト", 4), "日本語…");
        assert_eq!(describe("button", "go", "  Go  "), "button#go \"Go\"");
    }
}
