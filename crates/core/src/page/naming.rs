//! The one naming rule: where an element's name comes from, in which order, and when it is a
//! guess from an icon; and a scroll box's name.

use super::elements::clean_text;

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
    /// The `src` of the image that is all it shows (an image input's own).
    ImageFile,
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
    /// The whole name's length in characters, when `text` was cut to `max`.
    pub chars: Option<u32>,
    /// The name is the element's shown text (read up to a cap, so `chars` may count only part of it).
    pub shown: bool,
}

/// The text an agent sees for an element, cut at `max` characters (see `naming`).
pub fn element_name(tag: &str, part: impl Fn(NamePart) -> Option<String>, max: usize) -> String {
    naming(tag, part, max).text
}

/// The one naming rule. A control's label or accessible name, an image's alt, or the element's
/// accessible name (aria-labelledby, aria-label, text); then its title, an image's alt or an
/// SVG's title inside it; then, as a guess, an icon's symbol, its image's file name, ligature,
/// or class words. `part`
/// reads each source as the page has it, only when asked, so a caller reads no more than needed.
pub fn naming(tag: &str, part: impl Fn(NamePart) -> Option<String>, max: usize) -> ElementName {
    use super::icons::{action_word, file_words, ligature_name, symbol_name};
    use NamePart::*;
    let some = |p: NamePart| part(p).filter(|v| !v.trim().is_empty());
    let control = || [Label, LabelledBy, AriaLabel, Placeholder, Title, PrevLabel, Name].into_iter().find_map(some);
    let file = || some(ImageFile).and_then(|f| file_words(&f));
    let guess =
        |ligature: Option<String>| some(Symbol).and_then(|h| symbol_name(&h)).or_else(file).or(ligature).or_else(|| some(Words).and_then(|w| action_word(&w)));
    // `glyph`: shown text with no letter or digit ("«", "¶", "×") draws an icon, so a title or an
    // icon word names it better; it is kept only when nothing else does.
    let mut from_shown = false;
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
            from_shown = labelled.is_none() && shown.is_some();
            let real = labelled.or(shown).or_else(|| [Title, Inner, SvgTitle].into_iter().find_map(some));
            (real, Some(ligature), glyph)
        }
    };
    let name = |text: String, guess: bool| {
        let chars = text.split_whitespace().map(|w| w.chars().count() + 1).sum::<usize>().saturating_sub(1);
        ElementName { text: clean_text(&text, max), guess, chars: (chars > max).then_some(chars as u32), shown: false }
    };
    if let Some(text) = real {
        return ElementName { shown: from_shown, ..name(text, false) };
    }
    let guessed = match ligature {
        Some(l) => guess(l),
        None if tag == "input" => file().or_else(|| some(Words).and_then(|w| action_word(&w))),
        None => some(Words).and_then(|w| action_word(&w)),
    };
    match guessed {
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
        let long = naming("a", |p| (p == Shown).then(|| format!("  {}  ", "word ".repeat(20))), 40);
        assert_eq!((long.chars, long.shown), (Some(99), true), "a cut name knows its whole length and where it came from");
        let short = naming("button", |p| (p == AriaLabel).then(|| "Close".to_string()), 40);
        assert_eq!((short.chars, short.shown), (None, false));
    }

    #[test]
    fn a_control_showing_only_an_image_is_named_by_its_title_then_the_images_then_its_file() {
        use NamePart::*;
        let name = |tag: &str, parts: &[(NamePart, &str)]| {
            let parts: Vec<(NamePart, String)> = parts.iter().map(|(p, v)| (*p, v.to_string())).collect();
            let n = naming(tag, |want| parts.iter().find(|(p, _)| *p == want).map(|(_, v)| v.clone()), 40);
            (n.text, n.guess)
        };
        let bold = [(Title, "Bold Text [B]"), (Inner, "b"), (ImageFile, "/lib/images/toolbar/bold.png")];
        assert_eq!(name("button", &bold), ("Bold Text [B]".into(), false));
        assert_eq!(name("button", &[(AriaLabel, "Link"), (ImageFile, "link.png")]), ("Link".into(), false));
        assert_eq!(name("button", &[(Inner, "Italic"), (ImageFile, "italic.png")]), ("Italic".into(), false), "the image's alt or title");
        assert_eq!(name("button", &[(ImageFile, "/lib/images/toolbar/h2.png"), (Words, "toolbutton")]), ("h2".into(), true), "else its file, as a guess");
        assert_eq!(name("a", &[(ImageFile, "icons/trash-can.svg"), (Words, "btn-edit")]), ("trash can".into(), true), "a file says more than a class");
        assert_eq!(name("input", &[(Type, "image"), (ImageFile, "go_button.gif")]), ("go".into(), true));
        assert_eq!(name("img", &[(ImageFile, "logo.png")]), (String::new(), false), "an image alone is not named by its file");
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
}
