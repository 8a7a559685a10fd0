//! What a run may spend: model turns, input tokens, wall-clock time. Each agent sets its own.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    pub max_turns: u32,
    pub max_input_tokens: u64,
    pub max_wall_ms: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_turns: 20, max_input_tokens: 400_000, max_wall_ms: 300_000 }
    }
}

/// Which budget ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetKind {
    Turns,
    InputTokens,
    WallClock,
}

/// What a run has spent so far; checkpointed, so a resumed run keeps counting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BudgetUsed {
    pub turns: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    /// Some turn's model has a known price, so `cost_usd` means something.
    pub priced: bool,
    /// Epoch ms when the run started; wall clock counts from here, across worker restarts.
    pub started_at_ms: f64,
}

impl Budget {
    /// The first budget that is spent, checked before each model turn.
    pub fn exhausted(&self, used: &BudgetUsed, now_ms: f64) -> Option<BudgetKind> {
        if used.turns >= self.max_turns {
            Some(BudgetKind::Turns)
        } else if used.input_tokens >= self.max_input_tokens {
            Some(BudgetKind::InputTokens)
        } else if now_ms - used.started_at_ms >= self.max_wall_ms as f64 {
            Some(BudgetKind::WallClock)
        } else {
            None
        }
    }

    /// The final message naming the budget that ran out.
    pub fn message(&self, kind: BudgetKind) -> String {
        match kind {
            BudgetKind::Turns => format!("stopped: used all {} model turns without a final answer", self.max_turns),
            BudgetKind::InputTokens => {
                format!("stopped: used the input-token budget ({} tokens) without a final answer", self.max_input_tokens)
            }
            BudgetKind::WallClock => {
                format!("stopped: ran out of time ({} s) without a final answer", self.max_wall_ms / 1000)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_budget_is_named_when_spent() {
        let b = Budget { max_turns: 2, max_input_tokens: 100, max_wall_ms: 1000 };
        let mut u = BudgetUsed { started_at_ms: 0.0, ..Default::default() };
        assert_eq!(b.exhausted(&u, 10.0), None);
        u.turns = 2;
        assert_eq!(b.exhausted(&u, 10.0), Some(BudgetKind::Turns));
        u.turns = 1;
        u.input_tokens = 100;
        assert_eq!(b.exhausted(&u, 10.0), Some(BudgetKind::InputTokens));
        u.input_tokens = 0;
        assert_eq!(b.exhausted(&u, 1000.0), Some(BudgetKind::WallClock));
        assert!(b.message(BudgetKind::WallClock).contains("time"));
    }
}
