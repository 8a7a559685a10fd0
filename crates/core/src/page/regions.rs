//! The kinds of region a page's boxes are: by tag and role, else by the words of their id and class.

use crate::protocol::page_blocks::PageBox;

/// What a part of the page outside its main content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Navigation,
    Header,
    Footer,
    Sidebar,
    Comments,
    Related,
    Search,
    Overlay,
    Form,
    /// The captions of the pictures and players inside the main content.
    Captions,
    Section,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Navigation => "Navigation",
            Kind::Header => "Header",
            Kind::Footer => "Footer",
            Kind::Sidebar => "Sidebar",
            Kind::Comments => "Comments",
            Kind::Related => "Related links",
            Kind::Search => "Search",
            Kind::Overlay => "Banner",
            Kind::Form => "Form",
            Kind::Captions => "Captions",
            Kind::Section => "Other",
        }
    }

    /// Regions a reader skips when looking for the content.
    pub(super) fn is_boiler(self) -> bool {
        !matches!(self, Kind::Comments | Kind::Form | Kind::Captions | Kind::Section)
    }
}

/// Words in ids and classes that name a region; a whole word, or for the longer ones any part.
const NAMES: &[(&str, Kind, bool)] = &[
    ("nav", Kind::Navigation, true),
    ("navbar", Kind::Navigation, true),
    ("menu", Kind::Navigation, true),
    ("breadcrumb", Kind::Navigation, false),
    ("toc", Kind::Navigation, true),
    ("sidebar", Kind::Sidebar, false),
    ("sidenav", Kind::Sidebar, false),
    ("rail", Kind::Sidebar, true),
    ("footer", Kind::Footer, true),
    ("masthead", Kind::Header, false),
    ("header", Kind::Header, true),
    ("topbar", Kind::Header, false),
    ("comment", Kind::Comments, false),
    ("related", Kind::Related, false),
    ("popular", Kind::Related, false),
    ("recommend", Kind::Related, false),
    ("trending", Kind::Related, false),
    ("most-read", Kind::Related, false),
    ("promo", Kind::Related, false),
    ("newsletter", Kind::Related, false),
    ("share", Kind::Related, true),
    ("social", Kind::Related, false),
    ("advert", Kind::Related, false),
    ("sponsor", Kind::Related, false),
    ("ad", Kind::Related, true),
    ("cookie", Kind::Overlay, false),
    ("consent", Kind::Overlay, false),
];

/// The kind of region a box is, by its tag, role, id and class.
pub fn region(b: &PageBox) -> Option<Kind> {
    let by_tag = match (b.tag.as_str(), b.role.as_deref().unwrap_or("")) {
        (_, "navigation" | "menu" | "menubar" | "tablist") | ("nav", _) => Some(Kind::Navigation),
        (_, "banner") | ("header", _) => Some(Kind::Header),
        (_, "contentinfo") | ("footer", _) => Some(Kind::Footer),
        (_, "complementary") | ("aside", _) => Some(Kind::Sidebar),
        (_, "search") | ("search", _) => Some(Kind::Search),
        (_, "dialog" | "alertdialog") | ("dialog", _) => Some(Kind::Overlay),
        (_, "form") | ("form", _) => Some(Kind::Form),
        _ => None,
    };
    if by_tag.is_some() {
        return by_tag;
    }
    if b.fixed {
        return Some(Kind::Overlay);
    }
    let words = || b.name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty());
    NAMES.iter().find(|(n, _, whole)| if *whole { words().any(|w| w == *n) } else { b.name.contains(n) }).map(|(_, k, _)| *k)
}
