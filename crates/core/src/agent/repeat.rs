//! Loop detection by effect: the same call three times in a row, or an A-B-A-B cycle, each time
//! with the same result. A repeated call whose result changes (a scroll that moves, a spinner's
//! arrow, "next") is progress. The first time the model is told; if it goes on, the run ends.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RepeatGuard {
    /// The last few calls as `name args-json result-fingerprint`.
    recent: Vec<String>,
    warned: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Fine,
    /// A pattern was seen for the first time: this text goes to the model.
    Warn(String),
    /// The pattern went on after the warning.
    Stop,
}

const KEEP: usize = 4;

impl RepeatGuard {
    /// `result`: what the call answered, without anything that differs every time (timestamps).
    pub fn record(&mut self, tool: &str, args: &serde_json::Value, result: &str) -> Verdict {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        result.hash(&mut h);
        self.recent.push(format!("{tool} {args} {:016x}", h.finish()));
        if self.recent.len() > KEEP {
            self.recent.remove(0);
        }
        let Some(pattern) = self.pattern(tool) else {
            self.warned = false;
            return Verdict::Fine;
        };
        if self.warned {
            return Verdict::Stop;
        }
        self.warned = true;
        Verdict::Warn(pattern)
    }

    fn pattern(&self, tool: &str) -> Option<String> {
        let r = &self.recent;
        let n = r.len();
        if n >= 3 && r[n - 1] == r[n - 2] && r[n - 2] == r[n - 3] {
            return Some(format!(
                "[Dusk: you called `{tool}` with the same arguments 3 times in a row and got the same result each time; \
                 it will not change. Do something different, or give your final answer.]"
            ));
        }
        if n >= 4 && r[n - 1] == r[n - 3] && r[n - 2] == r[n - 4] && r[n - 1] != r[n - 2] {
            return Some(
                "[Dusk: your last calls alternate between the same two actions (A, B, A, B) and their results no longer change. \
                 Do something different, or give your final answer.]"
                    .to_string(),
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_call_three_times_warns_then_stops() {
        let mut g = RepeatGuard::default();
        assert_eq!(g.record("scroll", &json!({"y": 1}), "at 900"), Verdict::Fine);
        assert_eq!(g.record("scroll", &json!({"y": 1}), "at 900"), Verdict::Fine);
        assert!(matches!(g.record("scroll", &json!({"y": 1}), "at 900"), Verdict::Warn(t) if t.contains("3 times")));
        assert_eq!(g.record("scroll", &json!({"y": 1}), "at 900"), Verdict::Stop);
    }

    #[test]
    fn abab_warns_and_a_different_call_clears_it() {
        let mut g = RepeatGuard::default();
        for (t, expect_fine) in [("a", true), ("b", true), ("a", true)] {
            assert_eq!(g.record(t, &json!({}), "") == Verdict::Fine, expect_fine);
        }
        assert!(matches!(g.record("b", &json!({}), ""), Verdict::Warn(t) if t.contains("A, B, A, B")));
        assert_eq!(g.record("c", &json!({}), ""), Verdict::Fine);
        assert_eq!(g.record("a", &json!({}), ""), Verdict::Fine);
    }

    #[test]
    fn repeats_that_change_the_page_are_progress() {
        let mut g = RepeatGuard::default();
        for n in 0..10 {
            assert_eq!(g.record("click", &json!({"index": 4}), &format!("value {n} → {}", n + 1)), Verdict::Fine, "spinner click {n}");
        }
        let mut g = RepeatGuard::default();
        for n in 0..12 {
            let (tool, result) = if n % 2 == 0 { ("get_elements", format!("listing {n}")) } else { ("scroll", format!("now at {}", n * 600)) };
            assert_eq!(g.record(tool, &json!({}), &result), Verdict::Fine, "step {n}");
        }
        let stuck: Vec<Verdict> = (0..4).map(|n| g.record(if n % 2 == 0 { "get_elements" } else { "scroll" }, &json!({}), "the bottom")).collect();
        assert!(matches!(stuck[3], Verdict::Warn(_)), "a scroll that no longer moves is a loop: {stuck:?}");
    }
}
