//! The conversation the model is sent stays under a budget as it grows: the oldest exchanges
//! (a question, and everything up to the next question) are left out, whole, and the panel says so.

use crate::llm::estimate::estimate_input_tokens;
use crate::llm::Message;

/// Tokens of earlier questions and answers sent with each new question (the pages' text has its own).
pub const HISTORY_TOKENS: u64 = 8_000;

/// Where each exchange starts: a user message (pass 2's own turns are assistant and tool messages).
fn exchange_starts(history: &[Message]) -> Vec<usize> {
    history.iter().enumerate().filter(|(_, m)| matches!(m, Message::User { .. })).map(|(i, _)| i).collect()
}

/// The newest whole exchanges of `history` that fit in `budget` tokens, and how many were left out.
pub fn fit(history: &[Message], budget: u64) -> (Vec<Message>, usize) {
    let starts = exchange_starts(history);
    let mut from = history.len();
    for &start in starts.iter().rev() {
        if estimate_input_tokens(&history[start..], &[]) > budget {
            break;
        }
        from = start;
    }
    let dropped = starts.iter().filter(|&&s| s < from).count();
    (history[from..].to_vec(), dropped)
}

/// What the panel shows when earlier exchanges stop being sent.
pub fn note(dropped: usize) -> String {
    format!("To stay within its budget, the model no longer gets the {dropped} oldest question(s) of this chat and their answers; they stay here for you.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(n: usize, answer_chars: usize) -> Vec<Message> {
        vec![Message::user(format!("question {n}")), Message::assistant("a".repeat(answer_chars))]
    }

    #[test]
    fn the_newest_whole_exchanges_fit_and_the_rest_are_counted() {
        let history: Vec<Message> = (0..50).flat_map(|n| exchange(n, 2000)).collect();
        let (kept, dropped) = fit(&history, HISTORY_TOKENS);
        assert!(estimate_input_tokens(&kept, &[]) <= HISTORY_TOKENS);
        assert_eq!(kept.len() / 2 + dropped, 50);
        assert!(matches!(&kept[0], Message::User { text, .. } if text == &format!("question {dropped}")), "starts at a question");
        let short: Vec<Message> = (0..3).flat_map(|n| exchange(n, 100)).collect();
        assert_eq!(fit(&short, HISTORY_TOKENS), (short.clone(), 0));
    }
}
