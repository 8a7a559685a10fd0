//! The before/after the user sees before saving: a unified line diff of the site's CSS or JS.
//! The `diff` crate's line LCS: 5 KB of worker wasm, where `similar` cost 68 KB (measured).

use diff::Result as Line;

/// Unchanged lines kept around each change.
const CONTEXT: usize = 3;

/// A unified diff of `before` → `after` named `what` ("CSS", "JS"); "no change" when equal.
pub fn unified(what: &str, before: &str, after: &str) -> String {
    if before.trim() == after.trim() {
        return format!("{what}: no change");
    }
    let lines = diff::lines(before.trim_end(), after.trim_end());
    let changed: Vec<bool> = lines.iter().map(|l| !matches!(l, Line::Both(..))).collect();
    // A line is shown when a change is within CONTEXT lines of it.
    let near = |i: usize| changed[i.saturating_sub(CONTEXT)..(i + CONTEXT + 1).min(changed.len())].iter().any(|c| *c);
    let mut out = format!("--- {what} before\n+++ {what} after\n");
    let mut gap = false;
    for (i, line) in lines.iter().enumerate() {
        if !near(i) {
            gap = true;
            continue;
        }
        if gap || i == 0 {
            out.push_str("@@\n");
            gap = false;
        }
        match line {
            Line::Left(l) => out.push_str(&format!("-{l}\n")),
            Line::Right(r) => out.push_str(&format!("+{r}\n")),
            Line::Both(l, _) => out.push_str(&format!(" {l}\n")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_added_and_removed_lines_with_context() {
        let d = unified("CSS", "a{}\nb{}", "a{}\nc{}\n");
        assert!(d.starts_with("--- CSS before\n+++ CSS after\n@@\n"), "{d}");
        assert!(d.contains("-b{}") && d.contains("+c{}") && d.contains(" a{}"), "{d}");
        assert_eq!(unified("JS", "", "x()"), "--- JS before\n+++ JS after\n@@\n+x()\n");
        assert_eq!(unified("CSS", "a{}", "a{}\n"), "CSS: no change");
        let long: String = (0..20).map(|i| format!("l{i}\n")).collect();
        let d = unified("CSS", &long, &long.replace("l10\n", "x\n"));
        assert!(!d.contains(" l0\n") && d.contains(" l7\n") && d.contains(" l13\n") && !d.contains(" l14\n"), "{d}");
    }
}
