//! Loop detection: the same call three times in a row, or an A-B-A-B cycle. The first time the
//! model is told; if it goes on, the run ends.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RepeatGuard {
    /// The last few calls as `name args-json`.
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
    pub fn record(&mut self, tool: &str, args: &serde_json::Value) -> Verdict {
        self.recent.push(format!("{tool} {args}"));
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
                "[Dusk: you called `{tool}` with the same arguments 3 times in a row; the result will not change. \
                 Do something different, or give your final answer.]"
            ));
        }
        if n >= 4 && r[n - 1] == r[n - 3] && r[n - 2] == r[n - 4] && r[n - 1] != r[n - 2] {
            return Some(
                "[Dusk: your last calls alternate between the same two actions (A, B, A, B) without progress. \
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
        assert_eq!(g.record("scroll", &json!({"y": 1})), Verdict::Fine);
        assert_eq!(g.record("scroll", &json!({"y": 1})), Verdict::Fine);
        assert!(matches!(g.record("scroll", &json!({"y": 1})), Verdict::Warn(t) if t.contains("3 times")));
        assert_eq!(g.record("scroll", &json!({"y": 1})), Verdict::Stop);
    }

    #[test]
    fn abab_warns_and_a_different_call_clears_it() {
        let mut g = RepeatGuard::default();
        for (t, expect_fine) in [("a", true), ("b", true), ("a", true)] {
            assert_eq!(g.record(t, &json!({})) == Verdict::Fine, expect_fine);
        }
        assert!(matches!(g.record("b", &json!({})), Verdict::Warn(t) if t.contains("A, B, A, B")));
        assert_eq!(g.record("c", &json!({})), Verdict::Fine);
        assert_eq!(g.record("a", &json!({})), Verdict::Fine);
    }
}
