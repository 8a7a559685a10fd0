//! Names guessed for controls that show only an icon: a sprite symbol's id, an icon font's
//! ligature, or a word in a class or id that names an action or an icon. `element_name` asks for
//! these only after every real name (accessible name, title, alt, SVG title) came up empty.

/// Words of class names and ids that name what a control does, in the form the agent is told.
/// Left: the word as pages write it; right: the name given.
const VOCABULARY: &[(&str, &str)] = &[
    ("star", "star"),
    ("starred", "star"),
    ("unstar", "unstar"),
    ("trash", "trash"),
    ("bin", "trash"),
    ("delete", "delete"),
    ("remove", "remove"),
    ("reply", "reply"),
    ("forward", "forward"),
    ("retweet", "retweet"),
    ("repost", "repost"),
    ("share", "share"),
    ("like", "like"),
    ("unlike", "unlike"),
    ("dislike", "dislike"),
    ("heart", "like"),
    ("favorite", "favorite"),
    ("favourite", "favorite"),
    ("upvote", "upvote"),
    ("downvote", "downvote"),
    ("bookmark", "bookmark"),
    ("close", "close"),
    ("times", "close"),
    ("dismiss", "close"),
    ("menu", "menu"),
    ("hamburger", "menu"),
    ("bars", "menu"),
    ("search", "search"),
    ("magnifier", "search"),
    ("edit", "edit"),
    ("pencil", "edit"),
    ("settings", "settings"),
    ("cog", "settings"),
    ("gear", "settings"),
    ("more", "more"),
    ("ellipsis", "more"),
    ("kebab", "more"),
    ("dots", "more"),
    ("overflow", "more"),
    ("download", "download"),
    ("upload", "upload"),
    ("play", "play"),
    ("pause", "pause"),
    ("stop", "stop"),
    ("mute", "mute"),
    ("unmute", "unmute"),
    ("volume", "volume"),
    ("fullscreen", "fullscreen"),
    ("next", "next"),
    ("prev", "previous"),
    ("previous", "previous"),
    ("back", "back"),
    ("expand", "expand"),
    ("collapse", "collapse"),
    ("add", "add"),
    ("plus", "add"),
    ("minus", "minus"),
    ("refresh", "refresh"),
    ("reload", "refresh"),
    ("copy", "copy"),
    ("print", "print"),
    ("archive", "archive"),
    ("send", "send"),
    ("save", "save"),
    ("cart", "cart"),
    ("checkout", "checkout"),
    ("filter", "filter"),
    ("sort", "sort"),
    ("help", "help"),
    ("info", "info"),
    ("notifications", "notifications"),
    ("bell", "notifications"),
    ("mail", "mail"),
    ("email", "mail"),
    ("envelope", "mail"),
    ("comment", "comment"),
    ("comments", "comment"),
    ("chat", "chat"),
    ("attach", "attach"),
    ("paperclip", "attach"),
    ("calendar", "calendar"),
    ("camera", "camera"),
    ("mic", "microphone"),
    ("microphone", "microphone"),
    ("lock", "lock"),
    ("unlock", "unlock"),
    ("flag", "flag"),
    ("pin", "pin"),
    ("undo", "undo"),
    ("redo", "redo"),
    ("zoom", "zoom"),
    ("cancel", "cancel"),
    ("check", "check"),
    ("home", "home"),
    ("user", "account"),
    ("account", "account"),
    ("profile", "profile"),
    ("avatar", "profile"),
    ("logout", "log out"),
    ("signout", "log out"),
    ("login", "log in"),
    ("signin", "log in"),
    ("follow", "follow"),
    ("subscribe", "subscribe"),
    ("thumbs", "thumbs"),
    ("arrow", "arrow"),
    ("chevron", "arrow"),
    ("caret", "arrow"),
    ("dropdown", "dropdown"),
];

/// Words that may follow a vocabulary word and belong to its name: `thumbs up`, `arrow left`.
const QUALIFIERS: [&str; 4] = ["up", "down", "left", "right"];

/// Splits class names, ids and symbol names into lower-case words: `fa-trash-o`, `starIcon`,
/// `ic_more_vert` → `fa trash o`, `star icon`, `ic more vert`.
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_ascii_alphabetic() {
            if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_ascii_lowercase();
            cur.push(c.to_ascii_lowercase());
        } else {
            prev_lower = false;
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The first word of `raw` (class names, ids, test ids, in the order the page gave them) that
/// names an action or an icon, with a direction after it: `btn fa-trash-o` → `trash`.
pub fn action_word(raw: &str) -> Option<String> {
    let ws = words(raw);
    for (i, w) in ws.iter().enumerate() {
        let Some((_, name)) = VOCABULARY.iter().find(|(k, _)| k == w) else { continue };
        let next = ws.get(i + 1).map(String::as_str).filter(|n| QUALIFIERS.contains(n));
        return Some(match next {
            Some(q) => format!("{name} {q}"),
            None => (*name).to_string(),
        });
    }
    None
}

/// Prefixes sprite sheets put before a symbol's name.
const SYMBOL_PREFIXES: [&str; 8] = ["icon", "icons", "ic", "i", "svg", "glyph", "sprite", "symbol"];

/// The name in a `<use href="sprite.svg#icon-star-outline">`: `star outline`.
pub fn symbol_name(href: &str) -> Option<String> {
    let id = href.rsplit('#').next().filter(|_| href.contains('#')).unwrap_or(href);
    let id = id.rsplit('/').next().unwrap_or(id);
    let ws: Vec<String> = words(id).into_iter().skip_while(|w| SYMBOL_PREFIXES.contains(&w.as_str())).take(3).collect();
    (!ws.is_empty()).then(|| ws.join(" "))
}

/// An icon font's ligature (`star_border`, `more_vert`) as a name: `star border`. None when the
/// text is not one lower-case word, so a real label is never taken for a ligature.
pub fn ligature_name(text: &str) -> Option<String> {
    let t = text.trim();
    let one_word = !t.is_empty() && t.len() <= 40 && t.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    one_word.then(|| t.split('_').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" "))
}

/// The icon inside a named element, from its first icon-like descendant: its image label, else
/// the same guesses as an unnamed icon's (symbol, ligature, class words). One icon, at most three words.
/// An image whose label is the element's name (`<a><img alt="Show map"></a>`) named it already.
pub fn icon_inside(label: Option<&str>, symbol: Option<&str>, ligature: Option<&str>, words: Option<&str>, name: &str) -> Option<String> {
    let label = label
        .filter(|l| {
            super::case::lower(&l.split_whitespace().collect::<Vec<_>>().join(" "))
                != super::case::lower(&name.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .map(|l| super::case::lower(&l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")))
        .filter(|l| !l.is_empty());
    label.or_else(|| symbol.and_then(symbol_name)).or_else(|| ligature.and_then(ligature_name)).or_else(|| words.and_then(action_word))
}

/// Parts of an icon's file name that say nothing of what it does: sizes, states, prefixes.
const FILE_NOISE: [&str; 9] = ["icon", "icons", "ic", "img", "image", "btn", "button", "small", "large"];

/// An icon's file name as words, for a control that shows only that image: `lib/images/toolbar/h2.png`
/// → `h2`, `format-bold_24px.svg?v=3` → `format bold`. None for a data URL or a name of digits.
pub fn file_words(src: &str) -> Option<String> {
    if src.trim_start().starts_with("data:") {
        return None;
    }
    let path = src.split(['?', '#']).next().unwrap_or("");
    let file = path.rsplit('/').next().unwrap_or("");
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let size = |w: &str| w.trim_end_matches("px").chars().all(|c| c.is_ascii_digit() || c == 'x');
    let mut ws: Vec<String> = Vec::new();
    for part in stem.split(|c: char| !c.is_ascii_alphanumeric()).filter(|p| !p.is_empty()) {
        // camelCase splits; digits stay with their word (`h2`, `ol2`).
        let mut cur = String::new();
        let mut prev_lower = false;
        for c in part.chars() {
            if c.is_ascii_uppercase() && prev_lower {
                ws.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            cur.push(c.to_ascii_lowercase());
        }
        ws.push(cur);
    }
    ws.retain(|w| !size(w) && !FILE_NOISE.contains(&w.as_str()));
    ws.truncate(3);
    ws.iter().any(|w| w.chars().any(|c| c.is_ascii_alphabetic())).then(|| ws.join(" "))
}

/// A scroll box's class or id as words, when it reads like a name (`search-results` → `search
/// results`); generated names (`css-1x2y3z`) say nothing.
pub fn id_words(raw: &str) -> Option<String> {
    let first = raw.split_whitespace().find(|t| !t.chars().any(|c| c.is_ascii_digit()))?;
    let ws = words(first);
    (!ws.is_empty() && ws.iter().all(|w| w.len() > 1)).then(|| ws.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_words_name_actions_and_icons() {
        assert_eq!(action_word("btn fa fa-trash-o").as_deref(), Some("trash"));
        assert_eq!(action_word("T-KT aXw starIcon").as_deref(), Some("star"));
        assert_eq!(action_word("ic_more_vert").as_deref(), Some("more"));
        assert_eq!(action_word("icon-thumbs-up").as_deref(), Some("thumbs up"));
        assert_eq!(action_word("fa fa-times").as_deref(), Some("close"));
        assert_eq!(action_word("glyphicon glyphicon-cog").as_deref(), Some("settings"));
        assert_eq!(action_word("tweet-action retweet").as_deref(), Some("retweet"));
        assert_eq!(action_word("btn btn-primary nav-link"), None);
        assert_eq!(action_word("starter-kit"), None, "whole words only");
        assert_eq!(action_word(""), None);
    }

    #[test]
    fn symbols_and_ligatures_become_names() {
        assert_eq!(symbol_name("#icon-star").as_deref(), Some("star"));
        assert_eq!(symbol_name("/img/sprite.svg#ic_delete_forever").as_deref(), Some("delete forever"));
        assert_eq!(symbol_name("#i-reply").as_deref(), Some("reply"));
        assert_eq!(symbol_name("#icon-"), None);
        assert_eq!(ligature_name(" star_border ").as_deref(), Some("star border"));
        assert_eq!(ligature_name("more_vert").as_deref(), Some("more vert"));
        assert_eq!(ligature_name("Delete"), None, "a label, not a ligature");
        assert_eq!(ligature_name("read more"), None);
    }

    #[test]
    fn an_icons_file_name_reads_as_words() {
        assert_eq!(file_words("/lib/images/toolbar/h2.png").as_deref(), Some("h2"));
        assert_eq!(file_words("bold.png").as_deref(), Some("bold"));
        assert_eq!(file_words("icons/format-bold_24px.svg?v=3").as_deref(), Some("format bold"));
        assert_eq!(file_words("ic_insertLink.svg").as_deref(), Some("insert link"));
        assert_eq!(file_words("https://x.test/img/16x16/linkwiz.png#a").as_deref(), Some("linkwiz"));
        assert_eq!(file_words("1234.png"), None, "digits say nothing");
        assert_eq!(file_words("data:image/png;base64,AAA"), None);
        assert_eq!(file_words(""), None);
    }

    #[test]
    fn box_ids_read_as_words_unless_generated() {
        assert_eq!(id_words("search-results list").as_deref(), Some("search results"));
        assert_eq!(id_words("css-1x2y3z resultsPane").as_deref(), Some("results pane"));
        assert_eq!(id_words("a b"), None);
    }

    #[test]
    fn icons_get_a_name_and_say_it_is_a_guess() {
        use crate::page::naming::NamePart::{self, *};
        let name = |tag: &str, parts: &[(NamePart, &str)]| {
            let parts: Vec<(NamePart, String)> = parts.iter().map(|(p, v)| (*p, v.to_string())).collect();
            let n = crate::page::naming::naming(tag, |want| parts.iter().find(|(p, _)| *p == want).map(|(_, v)| v.clone()), 40);
            (n.text, n.guess)
        };
        let real = |s: &str| (s.to_string(), false);
        let guess = |s: &str| (s.to_string(), true);
        // Accessible name first: labelledby, aria-label, text; then title, an image's alt, an SVG's title.
        assert_eq!(name("span", &[(LabelledBy, "Star it"), (AriaLabel, "x"), (Words, "star")]), real("Star it"));
        assert_eq!(name("span", &[(Shown, " "), (Title, "Archive"), (Inner, "Box"), (Words, "trash")]), real("Archive"));
        assert_eq!(name("div", &[(Inner, "Like"), (SvgTitle, "Heart"), (Words, "like")]), real("Like"));
        assert_eq!(name("button", &[(SvgTitle, "Reply"), (Symbol, "#icon-reply")]), real("Reply"));
        // Then guesses: a sprite symbol, a ligature, class words.
        assert_eq!(name("button", &[(Symbol, "#icon-retweet"), (Words, "share")]), guess("retweet"));
        assert_eq!(name("span", &[(Shown, "star_border"), (Ligature, "star_border"), (Words, "x")]), guess("star border"));
        assert_eq!(name("span", &[(Ligature, "delete")]), guess("delete"), "the page layer leaves a ligature out of text");
        assert_eq!(name("span", &[(Shown, "home")]), real("home"), "one lower-case word without an icon font is text");
        assert_eq!(name("span", &[(Shown, "more_vert"), (Ligature, "more_vert"), (Title, "More options")]), real("More options"));
        assert_eq!(name("span", &[(Words, "T-KT aXw starIcon")]), guess("star"));
        assert_eq!(name("input", &[(Type, "checkbox"), (Words, "row-select")]), (String::new(), false));
        assert_eq!(name("input", &[(Type, "image"), (Alt, "Search the BBC"), (Name, "q")]), real("Search the BBC"));
        assert_eq!(name("img", &[(AriaLabel, "Chart"), (Alt, "c")]), real("Chart"));
        assert_eq!(name("iframe", &[(Name, "ads_frame")]), real("ads_frame"));
        assert_eq!(name("div", &[(Words, "row unread")]), (String::new(), false), "no word names an action: no name");
    }

    #[test]
    fn an_icon_inside_a_named_element_is_guessed_as_an_unnamed_one() {
        assert_eq!(
            icon_inside(None, None, None, Some("fa fa-stop"), "Stop").as_deref(),
            Some("stop"),
            "a class names the icon even where the text says the same"
        );
        assert_eq!(icon_inside(None, Some("#icon-star"), None, Some("x"), "Save").as_deref(), Some("star"));
        assert_eq!(icon_inside(None, None, Some("delete"), None, "Erase").as_deref(), Some("delete"));
        assert_eq!(icon_inside(Some("Pause"), None, None, Some("fa-stop"), "Halt").as_deref(), Some("pause"), "an image's label comes first");
        assert_eq!(icon_inside(Some("Show  map"), None, None, None, "Show map"), None, "the image named the element already");
        assert_eq!(icon_inside(None, None, Some("Not a ligature"), Some("nav-label"), "Home"), None);
    }
}
