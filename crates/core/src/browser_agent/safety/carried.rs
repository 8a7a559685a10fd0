//! Text the model was shown, by the site it was read on, so an action that would carry it to
//! another site (in a URL, or typed into a field) can be told apart from the user's own words.

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The shortest run of characters that counts as carried text.
pub const MIN_RUN: usize = 6;

/// Lines the model read, per site. The checkpoint keeps it as a journal of `ReadLines`; a
/// checkpoint from before the journal holds it whole, as `{ "sites": { site: [lines] } }`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(from = "StoredLog")]
pub struct ReadLog {
    sites: BTreeMap<String, SiteRead>,
}

#[derive(Debug, Clone, Default)]
struct SiteRead {
    lines: BTreeSet<String>,
    /// Every `MIN_RUN`-character window of the lines, normalised and packed, made from the lines
    /// added since the last check: a check costs the action's length and what was read since,
    /// and a step that only reads costs nothing more.
    windows: RefCell<HashSet<u128>>,
    unindexed: RefCell<Vec<String>>,
}

impl PartialEq for SiteRead {
    fn eq(&self, other: &Self) -> bool {
        self.lines == other.lines
    }
}

impl SiteRead {
    fn add(&mut self, line: &str) -> bool {
        if self.lines.contains(line) {
            return false;
        }
        self.lines.insert(line.to_string());
        self.unindexed.get_mut().push(line.to_string());
        true
    }

    /// The windows, brought up to date.
    fn windows(&self) -> std::cell::Ref<'_, HashSet<u128>> {
        let mut windows = self.windows.borrow_mut();
        for line in self.unindexed.borrow_mut().drain(..) {
            windows.extend(normal(&line).windows(MIN_RUN).map(pack));
        }
        drop(windows);
        self.windows.borrow()
    }
}

#[derive(Deserialize)]
struct StoredLog {
    #[serde(default)]
    sites: BTreeMap<String, Vec<String>>,
}

impl From<StoredLog> for ReadLog {
    fn from(stored: StoredLog) -> Self {
        ReadLog::replay(&stored.sites.into_iter().map(|(site, lines)| ReadLines { site, lines }).collect::<Vec<_>>())
    }
}

/// A window of `MIN_RUN` characters as one number: 21 bits a character, so two windows are equal
/// exactly when their numbers are.
fn pack(window: &[char]) -> u128 {
    window.iter().fold(0, |n, c| n << 21 | *c as u128)
}

/// Lines a step added to the log, as the run's checkpoint journal keeps them: each written once,
/// so a step's checkpoint costs what it read, not all the run has read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadLines {
    pub site: String,
    pub lines: Vec<String>,
}

/// Text read on one site that an action would carry to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Carried {
    /// The longest carried run, as it appears in the action.
    pub fragment: String,
    /// The site it was read on.
    pub from: String,
}

impl Carried {
    /// `jane.doe@bank…`: enough for the user to recognise it, not the whole value again.
    pub fn shown(&self) -> String {
        let n = self.fragment.chars().count();
        if n <= 14 {
            self.fragment.clone()
        } else {
            format!("{}…", self.fragment.chars().take(12).collect::<String>())
        }
    }
}

fn normal(text: &str) -> Vec<char> {
    text.chars().flat_map(char::to_lowercase).map(|c| if c.is_whitespace() { ' ' } else { c }).collect()
}

impl ReadLog {
    /// Remembers what the model was shown on `site`; the lines it hadn't seen there before.
    pub fn record(&mut self, site: &str, text: &str) -> Option<ReadLines> {
        let read = self.sites.entry(site.to_string()).or_default();
        let added: Vec<String> = text.lines().map(str::trim).filter(|l| l.chars().count() >= MIN_RUN && read.add(l)).map(str::to_string).collect();
        (!added.is_empty()).then(|| ReadLines { site: site.to_string(), lines: added })
    }

    /// The log again from the lines its steps added, in order.
    pub fn replay<'a>(entries: impl IntoIterator<Item = &'a ReadLines>) -> ReadLog {
        let mut log = ReadLog::default();
        for e in entries {
            let read = log.sites.entry(e.site.clone()).or_default();
            e.lines.iter().for_each(|l| _ = read.add(l));
        }
        log
    }

    fn text_of(&self, site: &str) -> String {
        self.sites.get(site).map(|r| r.lines.iter().cloned().collect::<Vec<_>>().join("\n")).unwrap_or_default()
    }

    /// Text of `value` (typed into a page of `to_site`) that the model read on another site.
    pub fn carried(&self, value: &str, to_site: &str, task: &str) -> Option<Carried> {
        self.longest_run(value, to_site, task, None)
    }

    /// Text in `url`'s path, query or fragment that the model read on a site other than the URL's,
    /// unless the page that showed it showed the whole URL (a link followed as the page gave it).
    pub fn carried_in_url(&self, url: &str, task: &str) -> Option<Carried> {
        let to_site = super::site::site_of(url)?;
        self.carried_in_url_to(url, &to_site, task)
    }

    /// The same, for `to_site` named inside the URL (where an open redirect would take it).
    pub fn carried_in_url_to(&self, url: &str, to_site: &str, task: &str) -> Option<Carried> {
        self.longest_run(&url_payload(url), to_site, task, Some(url))
    }

    /// The longest run of ≥ `MIN_RUN` characters of `value` read on a site other than `to_site`,
    /// unless the user's `task` or `to_site`'s own pages hold that run too.
    fn longest_run(&self, value: &str, to_site: &str, task: &str, whole: Option<&str>) -> Option<Carried> {
        let v = normal(value);
        if v.len() < MIN_RUN {
            return None;
        }
        // Made only once a run is found: most actions carry nothing, and the log grows with the run.
        let own = std::cell::OnceCell::new();
        let own = || own.get_or_init(|| normal(&format!("{}\n{}", self.text_of(to_site), task)).into_iter().collect::<String>());
        let whole: Option<String> = whole.map(|w| normal(w).into_iter().collect());
        let mut best: Option<Carried> = None;
        for (site, read) in self.sites.iter().filter(|(s, _)| s.as_str() != to_site) {
            let mut longest: Option<String> = None;
            let windows = read.windows();
            let mut i = 0;
            while i + MIN_RUN <= v.len() {
                if !windows.contains(&pack(&v[i..i + MIN_RUN])) {
                    i += 1;
                    continue;
                }
                let mut end = i + MIN_RUN;
                while end < v.len() && windows.contains(&pack(&v[end + 1 - MIN_RUN..=end])) {
                    end += 1;
                }
                let run: String = v[i..end].iter().collect();
                let meaningful = run.chars().filter(|c| c.is_alphanumeric()).count() >= 4;
                if meaningful && !own().contains(&run) && longest.as_ref().is_none_or(|l| l.chars().count() < run.trim().chars().count()) {
                    longest = Some(run.trim().to_string());
                }
                i = end;
            }
            let Some(fragment) = longest else { continue };
            // A link followed as the page gave it: that site's own lines hold the whole URL.
            if whole.as_ref().is_some_and(|w| read.lines.iter().any(|l| normal(l).into_iter().collect::<String>().contains(w.as_str()))) {
                continue;
            }
            if best.as_ref().is_none_or(|b| b.fragment.chars().count() < fragment.chars().count()) {
                best = Some(Carried { fragment, from: site.clone() });
            }
        }
        best
    }
}

/// The parts of a URL that carry data (path, query, fragment), percent-decoded, `+` as a space.
pub fn url_payload(url: &str) -> String {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let tail = rest.find(['/', '?', '#']).map(|i| &rest[i..]).unwrap_or("");
    percent_decode(&tail.replace('+', " "))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank() -> ReadLog {
        let mut log = ReadLog::default();
        let _ = log.record(
            "127.0.0.1",
            "Signed in as Jane Doe\nEmail: jane.doe@bank.example\nAccount: 4096 1234 5512\n[3] a \"Help\" href=\"http://help.example/faq?topic=cards\"",
        );
        log
    }

    #[test]
    fn page_data_in_a_url_to_another_site_is_found_and_named() {
        let url = "http://localhost:9/verify?email=jane.doe%40bank.example&acct=4096+1234+5512";
        let c = bank().carried_in_url(url, "What is my account email?").expect("carried");
        assert_eq!((c.fragment.as_str(), c.from.as_str()), ("jane.doe@bank.example", "127.0.0.1"));
        assert_eq!(c.shown(), "jane.doe@ban…");
        assert!(bank().carried_in_url("http://localhost:9/x?n=Jane%20Doe", "").is_some(), "a name, space-encoded");
    }

    #[test]
    fn the_same_site_the_users_words_and_links_as_given_carry_nothing() {
        let log = bank();
        assert_eq!(log.carried_in_url("http://127.0.0.1:9/search?q=jane.doe@bank.example", ""), None, "back to the site it came from");
        assert_eq!(log.carried_in_url("http://other.example/search?q=signed+in+as", "search for 'signed in as'"), None, "the task's words");
        assert_eq!(log.carried_in_url("http://help.example/faq?topic=cards", ""), None, "the page's own link, whole");
        assert!(log.carried_in_url("http://help.example/faq?topic=cards&who=jane.doe", "").is_some(), "a link with data added");
        assert_eq!(log.carried_in_url("http://other.example/a/b?page=2", ""), None, "short and common runs");
    }

    #[test]
    fn a_log_stored_whole_by_an_older_build_reads_back_and_still_finds_carried_text() {
        let stored = serde_json::json!({ "sites": { "127.0.0.1": ["Email: jane.doe@bank.example"] } });
        let log: ReadLog = serde_json::from_value(stored).unwrap();
        let c = log.carried("jane.doe@bank.example", "localhost", "").expect("carried");
        assert_eq!(c.from, "127.0.0.1");
        assert_eq!(log, ReadLog::replay(&[ReadLines { site: "127.0.0.1".into(), lines: vec!["Email: jane.doe@bank.example".into()] }]));
    }

    #[test]
    fn typed_text_from_another_site_is_found() {
        let c = bank().carried("4096 1234 5512", "localhost", "").expect("carried");
        assert_eq!(c.fragment, "4096 1234 5512");
        assert_eq!(bank().carried("hello world", "localhost", ""), None);
    }
}
