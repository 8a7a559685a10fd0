//! What a scope's sheets gained since the theme was built, from each sheet's mark (the page
//! layer lists them in one line each): a sheet that only grew at its end is read from its first
//! new rule, a new sheet whole, and anything else (a sheet gone, moved, switched, its media
//! changed, rules lost) asks for a full build.

use super::Sheet;

/// One of a scope's page sheets as a batch sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SheetMark {
    /// The same for the same sheet object, for as long as the page lives.
    pub id: u32,
    /// Its rule count; -1 for a cross-origin sheet (its rules throw).
    pub rules: i64,
    pub disabled: bool,
    pub media: String,
    /// A cross-origin sheet's URL (its text comes from the worker); empty for others.
    pub href: String,
}

impl SheetMark {
    /// Whether the scope's input holds a text for this sheet: an enabled sheet whose rules can be
    /// read, or a cross-origin one whose text has arrived (`foreign`).
    fn has_text(&self, foreign: &dyn Fn(&str) -> bool) -> bool {
        !self.disabled && (self.rules >= 0 || foreign(&self.href))
    }
}

/// Parses the page layer's marks: one line per sheet, `id`, rule count, `1` if disabled, media
/// and URL, separated by tabs (neither a media list nor a URL serialises with one).
pub fn parse_marks(text: &str) -> Vec<SheetMark> {
    text.lines()
        .filter_map(|line| {
            let mut f = line.split('\t');
            let id = f.next()?.parse().ok()?;
            let rules = f.next()?.parse().ok()?;
            let disabled = f.next()? == "1";
            let media = f.next().unwrap_or_default().to_string();
            let href = f.next().unwrap_or_default().to_string();
            Some(SheetMark { id, rules, disabled, media, href })
        })
        .collect()
}

/// Parses the page layer's marks as a change to `last` (the marks it listed before) when they
/// start with `~k`: the first `k` sheets are `last`'s, in place, with `=index\trules` lines for
/// those whose rule count changed, and full lines for the sheets after them. A busy page's batch
/// then sends what changed, not a line per sheet. Otherwise (or if `last` is too short) the text
/// is parsed whole; None: a change to marks it does not fit.
pub fn parse_marks_over(last: &[SheetMark], text: &str) -> Option<Vec<SheetMark>> {
    let Some(rest) = text.strip_prefix('~') else { return Some(parse_marks(text)) };
    let (head, lines) = rest.split_once('\n').unwrap_or((rest, ""));
    let kept: usize = head.parse().ok()?;
    let mut marks = last.get(..kept)?.to_vec();
    let mut tail = String::new();
    for line in lines.lines() {
        match line.strip_prefix('=') {
            Some(change) => {
                let (index, rules) = change.split_once('\t')?;
                marks.get_mut(index.parse::<usize>().ok().filter(|i| *i < kept)?)?.rules = rules.parse().ok()?;
            }
            None => {
                tail.push_str(line);
                tail.push('\n');
            }
        }
    }
    marks.extend(parse_marks(&tail));
    Some(marks)
}

/// A sheet's rules as the page layer read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rules {
    /// Only the rules from the one asked for on: the ones before are those it read last time.
    Tail(String),
    /// Every rule: it can't tell whether the ones before changed, so the text must start with
    /// the sheet's known text.
    Whole(String),
}

/// What the scope's sheets gained: the new rules' text (whole new sheets, and what grew at the
/// end of a known sheet) to build alone, and how the scope's sheets change once they are in.
#[derive(Debug, Default, PartialEq)]
pub struct Growth {
    pub added: Vec<Sheet>,
    edits: Vec<Edit>,
}

#[derive(Debug, PartialEq)]
enum Edit {
    /// Rules appended to the scope's sheet at this index (before any insertion).
    Append(usize, String),
    /// A new sheet going in at this index of the result.
    Insert(usize, Sheet),
}

impl Growth {
    /// The scope's sheets with what it gained: the text a full read would give now.
    pub fn apply(self, sheets: &mut Vec<Sheet>) {
        // Appends first, at the known indices; then insertions, in the order of the result.
        for edit in &self.edits {
            if let Edit::Append(at, text) = edit {
                if let Some(sheet) = sheets.get_mut(*at) {
                    // The text is shared with the sheet cache, so a grown sheet is a new text.
                    sheet.css = format!("{}{text}", sheet.css).into();
                }
            }
        }
        for edit in self.edits {
            if let Edit::Insert(at, sheet) = edit {
                sheets.insert(at.min(sheets.len()), sheet);
            }
        }
    }
}

/// What `now` gained over `before`, the marks the scope's `sheets` were read with; `read(index,
/// from)` reads the rules of `now[index]` from `from` on (None: it can't, say an `@import` is
/// among them). `foreign`: whether a cross-origin sheet's text has arrived. None when something
/// other than growth happened: the whole theme is built again then.
pub fn grow(
    before: &[SheetMark],
    now: &[SheetMark],
    sheets: &[Sheet],
    foreign: &dyn Fn(&str) -> bool,
    read: &mut dyn FnMut(usize, usize) -> Option<Rules>,
) -> Option<Growth> {
    let mut out = Growth::default();
    // `j`: the next known sheet; `k`: its text's index in `sheets`; `at`: the index in the result.
    let (mut j, mut k, mut at) = (0, 0, 0);
    for (index, mark) in now.iter().enumerate() {
        let Some(old) = before.get(j).filter(|old| old.id == mark.id) else {
            // A new sheet: read whole, unless it is switched off; a cross-origin one is fetched by a full build.
            if mark.disabled {
                continue;
            }
            if mark.rules < 0 {
                return None;
            }
            let css = match read(index, 0)? {
                Rules::Tail(css) | Rules::Whole(css) => css,
            };
            let sheet = Sheet { css: css.into(), media: mark.media.clone() };
            out.added.push(sheet.clone());
            out.edits.push(Edit::Insert(at, sheet));
            at += 1;
            continue;
        };
        j += 1;
        if old.disabled != mark.disabled || old.media != mark.media || old.href != mark.href || mark.rules < old.rules {
            return None;
        }
        let has_text = old.has_text(foreign);
        if mark.rules > old.rules {
            if old.rules < 0 || !has_text {
                return None;
            }
            let known = &sheets.get(k)?.css;
            let tail = match read(index, old.rules as usize)? {
                Rules::Tail(tail) => tail,
                Rules::Whole(css) => css.strip_prefix(&**known)?.to_string(),
            };
            out.added.push(Sheet { css: tail.as_str().into(), media: mark.media.clone() });
            out.edits.push(Edit::Append(k, tail));
        }
        if has_text {
            k += 1;
            at += 1;
        }
    }
    (j == before.len() && k == sheets.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(id: u32, rules: i64) -> SheetMark {
        SheetMark { id, rules, ..Default::default() }
    }

    fn sheet(css: &str) -> Sheet {
        Sheet { css: css.into(), media: String::new() }
    }

    /// A page's sheets as the page layer would read them: rule texts by sheet id.
    struct Page(Vec<(u32, Vec<&'static str>)>);

    impl Page {
        fn text(&self, id: u32, from: usize) -> String {
            self.0.iter().find(|(i, _)| *i == id).unwrap().1[from..].iter().map(|r| format!("{r}\n")).collect()
        }
    }

    fn no_foreign(_: &str) -> bool {
        false
    }

    #[test]
    fn marks_are_read_one_line_a_sheet() {
        let marks = parse_marks("3\t12\t0\t\t\n7\t-1\t1\tprint\thttps://cdn.example/a.css\n");
        assert_eq!(marks[0], mark(3, 12));
        assert_eq!(marks[1], SheetMark { id: 7, rules: -1, disabled: true, media: "print".into(), href: "https://cdn.example/a.css".into() });
        assert_eq!(parse_marks(""), vec![]);
    }

    #[test]
    fn marks_sent_as_a_change_patch_the_last_ones() {
        let last = parse_marks("3\t12\t0\t\t\n7\t-1\t1\tprint\thttps://cdn.example/a.css\n9\t4\t0\t\t\n");
        // The third sheet grew by a rule and a new sheet came after it.
        let now = parse_marks_over(&last, "~3\n=2\t5\n11\t1\t0\tscreen\t\n").unwrap();
        assert_eq!(now.len(), 4);
        assert_eq!(now[..2], last[..2]);
        assert_eq!((now[2].id, now[2].rules), (9, 5));
        assert_eq!((now[3].id, now[3].rules, now[3].media.as_str()), (11, 1, "screen"));
        // Only the first sheet kept, the rest listed whole; a whole list ignores the last one.
        let fewer = parse_marks_over(&last, "~1\n12\t2\t0\t\t\n").unwrap();
        assert_eq!(fewer.iter().map(|m| m.id).collect::<Vec<_>>(), [3, 12]);
        assert_eq!(parse_marks_over(&last, "5\t1\t0\t\t\n").unwrap().iter().map(|m| m.id).collect::<Vec<_>>(), [5]);
        // A change to marks it does not fit asks for a whole list.
        assert_eq!(parse_marks_over(&last, "~4\n"), None);
        assert_eq!(parse_marks_over(&last, "~2\n=2\t9\n"), None);
    }

    #[test]
    fn a_sheet_grown_at_its_end_gives_only_its_new_rules() {
        let page = Page(vec![(1, vec![".a{color:red}", ".b{color:blue}", ".c{color:green}"])]);
        let mut sheets = vec![sheet(&page.text(1, 0)[..".a{color:red}\n".len()])];
        let mut asked = vec![];
        let growth = grow(&[mark(1, 1)], &[mark(1, 3)], &sheets, &no_foreign, &mut |i, from| {
            asked.push((i, from));
            Some(Rules::Tail(page.text(1, from)))
        })
        .unwrap();
        assert_eq!(asked, vec![(0, 1)], "only the new rules are read");
        assert_eq!(growth.added, vec![sheet(".b{color:blue}\n.c{color:green}\n")]);
        growth.apply(&mut sheets);
        assert_eq!(sheets, vec![sheet(&page.text(1, 0))], "the scope's text is what a full read gives");
    }

    #[test]
    fn a_whole_read_must_start_with_the_known_text() {
        let sheets = vec![sheet(".a{color:red}\n")];
        let whole = |css: &'static str| move |_: usize, _: usize| Some(Rules::Whole(css.to_string()));
        let grown = grow(&[mark(1, 1)], &[mark(1, 2)], &sheets, &no_foreign, &mut whole(".a{color:red}\n.b{color:blue}\n")).unwrap();
        assert_eq!(grown.added, vec![sheet(".b{color:blue}\n")]);
        // A rule inserted before the known ones is not growth at the end.
        assert_eq!(grow(&[mark(1, 1)], &[mark(1, 2)], &sheets, &no_foreign, &mut whole(".b{color:blue}\n.a{color:red}\n")), None);
    }

    #[test]
    fn new_sheets_go_in_where_they_stand_and_switched_off_ones_are_left_out() {
        let mut sheets = vec![sheet("a{}\n"), sheet("b{}\n")];
        let before = [mark(1, 1), mark(2, 1)];
        let now = [mark(1, 1), mark(5, 1), SheetMark { disabled: true, ..mark(6, 1) }, mark(2, 1), mark(7, 2)];
        let page = Page(vec![(5, vec!["x{}"]), (6, vec!["off{}"]), (7, vec!["y{}", "z{}"])]);
        let growth = grow(&before, &now, &sheets, &no_foreign, &mut |i, from| Some(Rules::Tail(page.text(now[i].id, from)))).unwrap();
        assert_eq!(growth.added, vec![sheet("x{}\n"), sheet("y{}\nz{}\n")]);
        growth.apply(&mut sheets);
        assert_eq!(sheets, vec![sheet("a{}\n"), sheet("x{}\n"), sheet("b{}\n"), sheet("y{}\nz{}\n")]);
    }

    #[test]
    fn anything_but_growth_asks_for_a_full_build() {
        let sheets = vec![sheet("a{}\n"), sheet("b{}\n")];
        let before = [mark(1, 1), mark(2, 1)];
        let mut read = |_: usize, _: usize| Some(Rules::Tail("c{}\n".into()));
        let cases: [(&str, Vec<SheetMark>); 6] = [
            ("a sheet removed", vec![mark(2, 1)]),
            ("sheets reordered", vec![mark(2, 1), mark(1, 1)]),
            ("a rule removed", vec![mark(1, 0), mark(2, 1)]),
            ("a sheet switched off", vec![SheetMark { disabled: true, ..mark(1, 1) }, mark(2, 1)]),
            ("media changed", vec![SheetMark { media: "print".into(), ..mark(1, 1) }, mark(2, 1)]),
            ("a new cross-origin sheet", vec![mark(1, 1), mark(2, 1), SheetMark { rules: -1, href: "https://cdn.example/x.css".into(), ..mark(3, 0) }]),
        ];
        for (what, now) in cases {
            assert_eq!(grow(&before, &now, &sheets, &no_foreign, &mut read), None, "{what}");
        }
        // The page layer could not read the new rules (an @import among them).
        assert_eq!(grow(&before, &[mark(1, 2), mark(2, 1)], &sheets, &no_foreign, &mut |_, _| None), None);
    }

    #[test]
    fn a_cross_origin_sheet_keeps_its_place_by_whether_its_text_arrived() {
        let foreign = SheetMark { rules: -1, href: "https://cdn.example/a.css".into(), ..mark(1, 0) };
        let before = [foreign.clone(), mark(2, 1)];
        let now = [foreign, mark(2, 2)];
        let read = &mut |_: usize, _: usize| Some(Rules::Tail("c{}\n".into()));
        // Its text arrived: it is the scope's first sheet, and sheet 2 the second.
        let mut two = vec![sheet("cdn{}\n"), sheet("b{}\n")];
        grow(&before, &now, &two, &|u| u.starts_with("https://cdn."), read).unwrap().apply(&mut two);
        assert_eq!(two, vec![sheet("cdn{}\n"), sheet("b{}\nc{}\n")]);
        // Not yet: the scope's only sheet is sheet 2.
        let mut one = vec![sheet("b{}\n")];
        grow(&before, &now, &one, &no_foreign, read).unwrap().apply(&mut one);
        assert_eq!(one, vec![sheet("b{}\nc{}\n")]);
    }

    #[test]
    fn unchanged_marks_gain_nothing() {
        let sheets = vec![sheet("a{}\n")];
        let growth = grow(&[mark(1, 1)], &[mark(1, 1)], &sheets, &no_foreign, &mut |_, _| panic!("nothing to read")).unwrap();
        assert_eq!(growth, Growth::default());
    }
}
