//! No import circles in crates/core/src: files that take names from each other in a loop have
//! lost their order. What both sides share moves down to a module both can use.

mod import_graph;

use import_graph::{circles, describe, graph, Graph};
use std::path::Path;

fn sources(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
}

fn fixture(files: &[(&str, &str)]) -> Graph {
    graph(&sources(files)).expect("the fixture parses")
}

fn read_tree(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src is readable").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_tree(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src").to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).expect("a source file")));
        }
    }
}

#[test]
fn core_has_no_import_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    read_tree(&root, &root, &mut files);
    assert!(files.len() > 100, "read {} files", files.len());
    let g = graph(&files).expect("core parses");
    let found = circles(&g);
    let report: String = found.iter().map(|c| format!("circle of {}:\n{}", c.join(", "), describe(&g, c))).collect();
    assert!(found.is_empty(), "{} import circle(s) in crates/core/src; move what both sides share down:\n{report}", found.len());
    // The walk saw the real imports: a few that must be there.
    assert!(g["llm/client.rs"].contains_key("llm/providers/mod.rs"), "{:?}", g["llm/client.rs"].keys());
    assert!(g["chat/agent.rs"].contains_key("agent/run.rs") || g["chat/agent.rs"].contains_key("agent/mod.rs"), "{:?}", g["chat/agent.rs"].keys());
}

#[test]
fn a_use_each_way_is_a_circle() {
    let g = fixture(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod c;"),
        ("a.rs", "use crate::b::Thing; pub fn shared() {}"),
        ("b.rs", "pub struct Thing; pub fn f() { super::a::shared() }"),
        ("c.rs", "use crate::a::shared;"),
    ]);
    assert_eq!(circles(&g), vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
    assert_eq!(describe(&g, &circles(&g)[0]), "  a.rs -> b.rs: Thing\n  b.rs -> a.rs: shared\n");
}

#[test]
fn moving_the_shared_name_down_opens_the_circle() {
    let g = fixture(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod shared;"),
        ("a.rs", "use crate::b::Thing; use crate::shared::shared;"),
        ("b.rs", "pub struct Thing; pub fn f() { super::shared::shared() }"),
        ("shared.rs", "pub fn shared() {}"),
    ]);
    assert_eq!(circles(&g), Vec::<Vec<String>>::new());
    assert!(g["a.rs"].contains_key("b.rs") && g["b.rs"].contains_key("shared.rs"), "{g:?}");
}

#[test]
fn names_are_followed_through_re_exports_and_module_imports() {
    // x/mod.rs only hands `Kind` on; y.rs defines it and imports the face's other name.
    let g = fixture(&[
        ("lib.rs", "pub mod x; pub mod z;"),
        ("x/mod.rs", "pub mod y; pub use y::Kind; pub fn helper() {}"),
        ("x/y.rs", "pub enum Kind { A } pub fn g() { crate::z::run() }"),
        ("z.rs", "use crate::x; pub fn run() { let _ = x::Kind::A; }"),
    ]);
    assert_eq!(circles(&g), vec![vec!["x/y.rs".to_string(), "z.rs".to_string()]], "{g:?}");
    assert!(!g.get("z.rs").is_some_and(|to| to.contains_key("x/mod.rs")), "the face is passed through: {g:?}");
}

#[test]
fn a_path_inside_a_macro_counts() {
    let g = fixture(&[
        ("lib.rs", "pub mod a; pub mod b;"),
        ("a.rs", "pub const N: u8 = 1; pub fn f() -> String { format!(\"{}\", crate::b::name()) }"),
        ("b.rs", "pub fn name() -> String { format!(\"{}\", super::a::N) }"),
    ]);
    assert_eq!(circles(&g).len(), 1, "{g:?}");
}

#[test]
fn test_code_may_reach_up() {
    let g = fixture(&[
        ("lib.rs", "pub mod a; pub mod b;"),
        ("a.rs", "pub fn low() {} #[cfg(test)] mod tests { use crate::b::high; }"),
        ("b.rs", "use crate::a::low; pub fn high() { low() }"),
    ]);
    assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{g:?}");
    assert!(g["b.rs"].contains_key("a.rs"));
}

#[test]
fn a_re_export_ties_only_where_the_file_uses_the_name() {
    // p/mod.rs hands `Child` on and defines `Base`, which the child uses: no circle.
    let handed_on = fixture(&[
        ("lib.rs", "pub mod p;"),
        ("p/mod.rs", "mod c; pub use c::Child; pub struct Base;"),
        ("p/c.rs", "use super::Base; pub struct Child(pub Base);"),
    ]);
    assert_eq!(circles(&handed_on), Vec::<Vec<String>>::new(), "{handed_on:?}");
    // Once p/mod.rs uses `Child` itself, the two take from each other.
    let used = fixture(&[
        ("lib.rs", "pub mod p;"),
        ("p/mod.rs", "mod c; pub use c::Child; pub struct Base; pub fn make() -> Child { Child(Base) }"),
        ("p/c.rs", "use super::Base; pub struct Child(pub Base);"),
    ]);
    assert_eq!(circles(&used), vec![vec!["p/c.rs".to_string(), "p/mod.rs".to_string()]], "{used:?}");
}
