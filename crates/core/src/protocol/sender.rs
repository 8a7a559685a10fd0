use crate::CoreError;

/// Content scripts obey only their own extension: `sender.id` must equal our runtime id.
pub fn check_sender(sender_id: Option<&str>, own_id: &str) -> Result<(), CoreError> {
    match sender_id {
        Some(id) if !own_id.is_empty() && id == own_id => Ok(()),
        _ => Err(CoreError::UntrustedSender),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_only_own_extension() {
        assert_eq!(check_sender(Some("abc"), "abc"), Ok(()));
        assert_eq!(check_sender(Some("evil"), "abc"), Err(CoreError::UntrustedSender));
        assert_eq!(check_sender(None, "abc"), Err(CoreError::UntrustedSender));
        assert_eq!(check_sender(Some(""), ""), Err(CoreError::UntrustedSender));
    }
}
