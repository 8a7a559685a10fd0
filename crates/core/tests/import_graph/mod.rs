//! The file-level import graph of a crate's `src/`: which file takes names from which. A path
//! (`use crate::…`, `super::…`, `self::…`, a child module, or a module brought in by `use`) is
//! followed through re-exports to the file that defines the name. Test-only code is left out:
//! a test may reach up to what it tests.

mod circles;

pub use circles::{circles, describe};
use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use syn::visit::Visit;

/// A module's path from the crate root: `["llm", "providers"]`.
type ModPath = Vec<String>;

/// One `use` leaf: the name it binds in its module and the path it stands for.
struct UseLeaf {
    alias: String,
    target: Vec<String>,
    glob: bool,
    /// `pub use` hands a name on; it ties the file only where its own code uses the name too.
    public: bool,
}

#[derive(Default)]
struct Crate {
    /// Module → the file (relative to `src/`) that holds it.
    files: BTreeMap<ModPath, String>,
    /// Module → the names its items define.
    defs: BTreeMap<ModPath, BTreeSet<String>>,
    uses: BTreeMap<ModPath, Vec<UseLeaf>>,
    /// Every other path written in non-test code, with the module it is written in.
    paths: Vec<(ModPath, Vec<String>)>,
    /// Files declared with `#[cfg(test)] mod x;`.
    test_modules: BTreeSet<ModPath>,
}

enum Target {
    Module,
    Item(String, String),
}

/// The graph: file → file it imports → the names taken.
pub type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// `sources` are (path under `src/`, text), e.g. ("llm/client.rs", "…"); `lib.rs` is the root.
pub fn graph(sources: &[(String, String)]) -> Result<Graph, String> {
    let mut krate = Crate::default();
    let mut parsed = Vec::new();
    for (path, text) in sources {
        let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
        let module = module_of(path);
        krate.files.insert(module.clone(), path.clone());
        parsed.push((module, path.clone(), file));
    }
    for (module, path, file) in &parsed {
        let mut collector = Collector { krate: &mut krate, module: module.clone(), file: path.clone(), public: false };
        collector.visit_file(file);
    }
    let tests: Vec<ModPath> = krate.test_modules.iter().cloned().collect();
    for t in tests {
        let gone: Vec<ModPath> = krate.files.keys().filter(|m| m.starts_with(&t)).cloned().collect();
        for m in gone {
            krate.files.remove(&m);
            krate.defs.remove(&m);
            krate.uses.remove(&m);
            krate.paths.retain(|(at, _)| !at.starts_with(&m));
        }
    }
    let mut graph = Graph::new();
    for (module, leaves) in &krate.uses {
        for leaf in leaves {
            if leaf.public && !krate.paths.iter().any(|(at, segments)| at == module && segments.first() == Some(&leaf.alias)) {
                continue;
            }
            let Some(abs) = krate.absolute(module, &leaf.target) else { continue };
            if leaf.glob {
                if let Some(file) = krate.files.get(&abs) {
                    add(&mut graph, &krate, module, file, "*");
                }
                continue;
            }
            if let Some(Target::Item(file, name)) = krate.resolve(&abs, 0) {
                add(&mut graph, &krate, module, &file, &name);
            }
        }
    }
    for (module, segments) in &krate.paths {
        if segments.len() < 2 {
            continue;
        }
        let Some(abs) = krate.absolute(module, segments) else { continue };
        if let Some(Target::Item(file, name)) = krate.resolve(&abs, 0) {
            add(&mut graph, &krate, module, &file, &name);
        }
    }
    Ok(graph)
}

fn add(graph: &mut Graph, krate: &Crate, module: &ModPath, to: &str, name: &str) {
    let from = krate.file_of(module);
    if from != to {
        graph.entry(from).or_default().entry(to.to_string()).or_default().insert(name.to_string());
    }
}

fn module_of(path: &str) -> ModPath {
    let mut parts: Vec<String> = path.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

impl Crate {
    /// The file of a module; an inline module lives in its parent's file.
    fn file_of(&self, module: &ModPath) -> String {
        (0..=module.len()).rev().find_map(|n| self.files.get(&module[..n])).cloned().unwrap_or_default()
    }

    fn is_module(&self, m: &[String]) -> bool {
        self.files.contains_key(m) || self.defs.contains_key(m)
    }

    /// A path written in `module` as a path from the crate root; None for another crate's.
    fn absolute(&self, module: &ModPath, segments: &[String]) -> Option<Vec<String>> {
        self.absolute_at(module, segments, 0)
    }

    fn absolute_at(&self, module: &ModPath, segments: &[String], depth: usize) -> Option<Vec<String>> {
        let first = segments.first()?;
        if depth > 16 {
            return None;
        }
        match first.as_str() {
            "crate" => Some(segments[1..].to_vec()),
            "self" => Some([module.as_slice(), &segments[1..]].concat()),
            "super" => {
                let mut base = module.clone();
                let mut rest = segments;
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                Some([base.as_slice(), rest].concat())
            }
            _ => {
                let child = [module.as_slice(), std::slice::from_ref(first)].concat();
                if self.is_module(&child) {
                    return Some([module.as_slice(), segments].concat());
                }
                let leaf = self.uses.get(module)?.iter().find(|l| !l.glob && &l.alias == first)?;
                let base = self.absolute_at(module, &leaf.target, depth + 1)?;
                Some([base.as_slice(), &segments[1..]].concat())
            }
        }
    }

    /// The module or the defining file of an absolute path, following `use`s.
    fn resolve(&self, abs: &[String], depth: usize) -> Option<Target> {
        if depth > 16 {
            return None;
        }
        let mut n = 0;
        while n < abs.len() && self.is_module(&abs[..=n]) {
            n += 1;
        }
        let (module, rest) = (abs[..n].to_vec(), &abs[n..]);
        let Some(name) = rest.first() else { return Some(Target::Module) };
        if self.defs.get(&module).is_some_and(|d| d.contains(name)) {
            return Some(Target::Item(self.file_of(&module), name.clone()));
        }
        let leaves = self.uses.get(&module).map(Vec::as_slice).unwrap_or_default();
        if let Some(leaf) = leaves.iter().find(|l| !l.glob && &l.alias == name) {
            let base = self.absolute(&module, &leaf.target)?;
            return self.resolve(&[base.as_slice(), &rest[1..]].concat(), depth + 1);
        }
        for leaf in leaves.iter().filter(|l| l.glob) {
            let Some(base) = self.absolute(&module, &leaf.target) else { continue };
            if let Some(Target::Item(file, name)) = self.resolve(&[base.as_slice(), rest].concat(), depth + 1) {
                return Some(Target::Item(file, name));
            }
        }
        if module.is_empty() {
            return None;
        }
        Some(Target::Item(self.file_of(&module), name.clone()))
    }
}

struct Collector<'a> {
    krate: &'a mut Crate,
    module: ModPath,
    file: String,
    public: bool,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg") && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string().contains("test")))
}

impl Collector<'_> {
    fn define(&mut self, ident: &syn::Ident) {
        self.krate.defs.entry(self.module.clone()).or_default().insert(ident.to_string());
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        let public = self.public;
        let mut leaf = |alias: String, target: Vec<String>, glob: bool| {
            self.krate.uses.entry(self.module.clone()).or_default().push(UseLeaf { alias, target, glob, public })
        };
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) if n.ident == "self" => leaf(prefix.last().cloned().unwrap_or_default(), prefix.clone(), false),
            syn::UseTree::Name(n) => leaf(n.ident.to_string(), [prefix.as_slice(), &[n.ident.to_string()]].concat(), false),
            syn::UseTree::Rename(r) if r.ident == "self" => leaf(r.rename.to_string(), prefix.clone(), false),
            syn::UseTree::Rename(r) => leaf(r.rename.to_string(), [prefix.as_slice(), &[r.ident.to_string()]].concat(), false),
            syn::UseTree::Glob(_) => leaf("*".into(), prefix.clone(), true),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    /// `a::b::c` runs inside a macro's tokens.
    fn macro_paths(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut colons = 0;
        let flush = |run: &mut Vec<String>, paths: &mut Vec<(ModPath, Vec<String>)>, module: &ModPath| {
            if run.len() > 1 {
                paths.push((module.clone(), std::mem::take(run)));
            }
            run.clear();
        };
        for tt in tokens {
            match tt {
                TokenTree::Ident(i) if colons == 2 || run.is_empty() => {
                    if colons != 2 {
                        flush(&mut run, &mut self.krate.paths, &self.module);
                    }
                    run.push(i.to_string());
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' && !run.is_empty() && colons < 2 => colons += 1,
                TokenTree::Group(g) => {
                    flush(&mut run, &mut self.krate.paths, &self.module);
                    colons = 0;
                    self.macro_paths(g.stream());
                }
                other => {
                    flush(&mut run, &mut self.krate.paths, &self.module);
                    colons = 0;
                    if let TokenTree::Ident(i) = other {
                        run.push(i.to_string());
                    }
                }
            }
        }
        flush(&mut run, &mut self.krate.paths, &self.module);
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Union(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if is_test(attrs) {
            if let syn::Item::Mod(m) = item {
                self.krate.test_modules.insert([self.module.as_slice(), &[m.ident.to_string()]].concat());
            }
            return;
        }
        match item {
            syn::Item::Const(i) => self.define(&i.ident),
            syn::Item::Enum(i) => self.define(&i.ident),
            syn::Item::Fn(i) => self.define(&i.sig.ident),
            syn::Item::Static(i) => self.define(&i.ident),
            syn::Item::Struct(i) => self.define(&i.ident),
            syn::Item::Trait(i) => self.define(&i.ident),
            syn::Item::Type(i) => self.define(&i.ident),
            syn::Item::Union(i) => self.define(&i.ident),
            syn::Item::Macro(i) => {
                if let Some(ident) = &i.ident {
                    self.define(ident);
                }
            }
            _ => {}
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let child = [self.module.as_slice(), &[m.ident.to_string()]].concat();
        if let Some((_, items)) = &m.content {
            self.krate.files.entry(child.clone()).or_insert_with(|| self.file.clone());
            let outer = std::mem::replace(&mut self.module, child);
            for item in items {
                self.visit_item(item);
            }
            self.module = outer;
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        if u.leading_colon.is_none() {
            self.public = !matches!(u.vis, syn::Visibility::Inherited);
            self.use_tree(&mut prefix, &u.tree);
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.leading_colon.is_none() {
            self.krate.paths.push((self.module.clone(), p.segments.iter().map(|s| s.ident.to_string()).collect()));
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.macro_paths(m.tokens.clone());
        syn::visit::visit_macro(self, m);
    }
}
