//! The chat's budget follows the model's context window. A cloud model gets the fixed budgets; the
//! on-device model's window (`contextWindow`, a few thousand tokens) is split between the page's
//! text, earlier exchanges, and room for the system prompt and the answer.

/// Tokens of page text and of earlier exchanges sent with one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatBudget {
    pub page_tokens: usize,
    pub history_tokens: u64,
}

/// What the fixed budgets are for models with large windows.
pub const CLOUD: ChatBudget = ChatBudget { page_tokens: crate::chat::prompt::PAGE_TOKEN_BUDGET, history_tokens: crate::chat::budget::HISTORY_TOKENS };

/// The window assumed before the first session reports one (Gemini Nano's smallest in Chrome).
pub const ASSUMED_WINDOW: u64 = 6_144;

/// Kept free for the system prompt, the question and the answer.
const RESERVED: u64 = 2_048;

/// The budget for a model whose window is `window` tokens (None: not on-device, or not known yet).
pub fn for_window(on_device: bool, window: Option<u64>) -> ChatBudget {
    if !on_device {
        return CLOUD;
    }
    let window = window.filter(|w| *w > 0).unwrap_or(ASSUMED_WINDOW);
    let room = window.saturating_sub(RESERVED).clamp(512, 1 << 20);
    let page = (room * 2 / 3).min(CLOUD.page_tokens as u64);
    let history = (room - room * 2 / 3).min(CLOUD.history_tokens);
    ChatBudget { page_tokens: page as usize, history_tokens: history }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_fits_inside_the_window() {
        assert_eq!(for_window(false, Some(4_000)), CLOUD);
        for window in [4_096, 6_144, 9_216, 32_000] {
            let b = for_window(true, Some(window));
            assert!(b.page_tokens as u64 + b.history_tokens + RESERVED <= window, "{window}: {b:?}");
        }
        assert_eq!(for_window(true, None), for_window(true, Some(ASSUMED_WINDOW)));
        assert!(for_window(true, Some(9_216)).page_tokens > for_window(true, Some(6_144)).page_tokens);
        assert!(for_window(true, Some(u64::MAX)).page_tokens <= CLOUD.page_tokens);
        assert!(for_window(true, Some(100)).page_tokens > 0);
    }
}
