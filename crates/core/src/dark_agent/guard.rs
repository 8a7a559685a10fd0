//! The guard: a version the model applies is kept only if the page is no worse than under
//! Instant: AA share at least Instant's, no text hidden, nothing moved (unless layout was asked).

use crate::protocol::css::ThemeQuality;
use serde::{Deserialize, Serialize};

/// Measurement noise on the AA share that still counts as "as good".
const AA_TOLERANCE: f64 = 0.0005;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub kept: bool,
    /// Why not, one line each; empty when kept.
    pub reasons: Vec<String>,
}

pub fn judge(candidate: &ThemeQuality, instant: &ThemeQuality, allow_layout: bool) -> Verdict {
    let mut reasons = Vec::new();
    if candidate.aa_share + AA_TOLERANCE < instant.aa_share {
        let worst =
            candidate.worst.first().map(|w| format!(" (worst: {} at {:.2}:1, {} on {})", w.selector, w.ratio, w.color, w.background)).unwrap_or_default();
        reasons.push(format!("text meeting WCAG AA fell from {:.1}% to {:.1}%{worst}", instant.aa_share * 100.0, candidate.aa_share * 100.0));
    }
    if candidate.hidden_text > 0 {
        reasons.push(format!("{} text element(s) became hidden or unreadable{}", candidate.hidden_text, examples(&candidate.hidden)));
    }
    if candidate.moved > 0 && !allow_layout {
        reasons.push(format!("{} element(s) moved or changed size{}", candidate.moved, examples(&candidate.moved_examples)));
    }
    Verdict { kept: reasons.is_empty(), reasons }
}

fn examples(selectors: &[String]) -> String {
    if selectors.is_empty() {
        return String::new();
    }
    format!(" (e.g. {})", selectors.iter().take(3).cloned().collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::css::LowContrast;

    fn q(aa: f64, hidden: u32, moved: u32) -> ThemeQuality {
        ThemeQuality { text_elements: 100, aa_share: aa, hidden_text: hidden, moved, ..Default::default() }
    }

    #[test]
    fn kept_only_when_no_worse_than_instant() {
        let instant = q(1.0, 0, 0);
        assert!(judge(&q(1.0, 0, 0), &instant, false).kept);
        let mut worse = q(0.62, 0, 0);
        worse.worst.push(LowContrast { selector: "main p".into(), ratio: 1.0, color: "#fff".into(), background: "#fff".into() });
        let v = judge(&worse, &instant, false);
        assert!(!v.kept && v.reasons[0].contains("100.0% to 62.0%") && v.reasons[0].contains("main p at 1.00:1"), "{v:?}");
        let v = judge(&q(1.0, 12, 0), &instant, false);
        assert!(!v.kept && v.reasons[0].contains("12 text element(s) became hidden"));
        assert!(!judge(&q(1.0, 0, 3), &instant, false).kept);
        assert!(judge(&q(1.0, 0, 3), &instant, true).kept, "layout changes were asked for");
    }
}
