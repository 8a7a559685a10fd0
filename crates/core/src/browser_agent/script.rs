//! execute_js's wrapping: the model's code runs as an expression (or, if that doesn't parse, as a
//! function body), awaited, with errors and a timeout caught in the page and reported back, since
//! the injection APIs turn every failure into a bare `null`.

use serde_json::Value;

/// A script still running after this is reported as timed out.
pub const SCRIPT_TIMEOUT_MS: u32 = 10_000;

fn wrap(inner: &str) -> String {
    format!(
        "(async () => {{ try {{ const run = async () => {inner}; \
         const limit = new Promise((_, no) => setTimeout(() => no(new Error('the script did not finish within {SCRIPT_TIMEOUT_MS} ms')), {SCRIPT_TIMEOUT_MS})); \
         const v = await Promise.race([run(), limit]); \
         return {{ ok: true, value: v === undefined ? null : JSON.parse(JSON.stringify(v) ?? 'null') }}; }} \
         catch (e) {{ return {{ ok: false, error: String((e && e.stack) || e).split('\\n')[0] }}; }} }})()"
    )
}

/// The code as an expression, e.g. `document.title`.
pub fn as_expression(code: &str) -> String {
    wrap(&format!("(\n{code}\n)"))
}

/// The code as a function body, e.g. `const a = 2; return a * 3;`.
pub fn as_body(code: &str) -> String {
    wrap(&format!("{{\n{code}\n}}"))
}

/// What the page reported. `None`: the wrapper didn't run at all (the code didn't parse).
pub fn outcome(result: &Value) -> Option<Result<Value, String>> {
    let ok = result.get("ok")?.as_bool()?;
    Some(if ok {
        Ok(result.get("value").cloned().unwrap_or(Value::Null))
    } else {
        Err(format!("the script threw: {}", result.get("error").and_then(Value::as_str).unwrap_or("an error")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_wrappers_keep_the_code_and_outcomes_are_read_back() {
        assert!(as_expression("document.title").contains("(\ndocument.title\n)"));
        assert!(as_body("return 1;").contains("{\nreturn 1;\n}"));
        assert_eq!(outcome(&json!({"ok": true, "value": 14})), Some(Ok(json!(14))));
        assert_eq!(outcome(&json!({"ok": false, "error": "RangeError: nope"})), Some(Err("the script threw: RangeError: nope".into())));
        assert_eq!(outcome(&Value::Null), None);
    }
}
