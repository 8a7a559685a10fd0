//! crates/core is plain Rust, tested natively: no dependency on wasm-bindgen, web-sys, js-sys or
//! any other browser binding, and no source file that names one. The wasm crates bind it.

use std::path::Path;

const BINDINGS: &[&str] = &["wasm-bindgen", "wasm_bindgen", "web-sys", "web_sys", "js-sys", "js_sys", "gloo", "serde-wasm-bindgen", "serde_wasm_bindgen"];

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).expect("a source file")));
        }
    }
}

#[test]
fn core_depends_on_no_browser_binding() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).expect("Cargo.toml");
    let named: Vec<&str> = BINDINGS.iter().copied().filter(|b| manifest.lines().any(|l| l.trim_start().starts_with(b))).collect();
    assert!(named.is_empty(), "crates/core/Cargo.toml depends on {named:?}");
}

#[test]
fn no_core_source_names_a_browser_binding() {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 50, "read {} files", files.len());
    let found: Vec<String> = files
        .iter()
        .flat_map(|(path, text)| BINDINGS.iter().filter(|b| b.contains('_') && text.contains(&format!("{b}::"))).map(move |b| format!("{path}: {b}")))
        .collect();
    assert!(found.is_empty(), "{found:?}");
}
