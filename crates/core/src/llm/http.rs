//! The HTTP request a provider wants sent; the worker turns it into a `fetch` call.

use serde::{Deserialize, Serialize};

#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpRequest {
    pub fn post_json(url: String, headers: Vec<(String, String)>, body: &serde_json::Value) -> Self {
        let mut headers = headers;
        headers.insert(0, ("content-type".into(), "application/json".into()));
        HttpRequest { method: "POST".into(), url, headers, body: body.to_string() }
    }

    /// Looks a header up case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Headers that carry credentials; their values never reach a log.
fn is_secret(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "authorization" || n == "x-api-key" || n == "x-goog-api-key" || n == "api-key"
}

impl std::fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<(&str, &str)> = self.headers.iter().map(|(k, v)| (k.as_str(), if is_secret(k) { "<redacted>" } else { v.as_str() })).collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body_len", &self.body.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_credentials() {
        let r = HttpRequest::post_json(
            "https://x/y".into(),
            vec![("Authorization".into(), "Bearer sk-secret".into()), ("x-api-key".into(), "k2".into())],
            &serde_json::json!({}),
        );
        let s = format!("{r:?}");
        assert!(!s.contains("sk-secret") && !s.contains("k2"), "{s}");
        assert_eq!(r.header("CONTENT-TYPE"), Some("application/json"));
    }
}
