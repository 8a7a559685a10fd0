//! The before/after the user sees before saving: a unified line diff of the site's CSS or JS.

use similar::TextDiff;

/// A unified diff of `before` → `after` named `what` ("CSS", "JS"); "no change" when equal.
pub fn unified(what: &str, before: &str, after: &str) -> String {
    if before.trim() == after.trim() {
        return format!("{what}: no change");
    }
    let (before, after) = (with_newline(before), with_newline(after));
    let diff = TextDiff::from_lines(&before, &after);
    diff.unified_diff().context_radius(3).header(&format!("{what} before"), &format!("{what} after")).to_string()
}

fn with_newline(s: &str) -> String {
    let t = s.trim_end();
    if t.is_empty() {
        String::new()
    } else {
        format!("{t}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_added_and_removed_lines() {
        let d = unified("CSS", "a{}\nb{}", "a{}\nc{}\n");
        assert!(d.contains("--- CSS before") && d.contains("+++ CSS after"), "{d}");
        assert!(d.contains("-b{}") && d.contains("+c{}") && d.contains(" a{}"), "{d}");
        assert!(unified("JS", "", "x()").contains("+x()"));
        assert_eq!(unified("CSS", "a{}", "a{}\n"), "CSS: no change");
    }
}
