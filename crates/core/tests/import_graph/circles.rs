//! The circles of an import graph (Tarjan's strongly connected parts), and how to tell them.

use super::Graph;
use std::collections::{BTreeMap, BTreeSet};

/// Every circle: the files of each strongly connected part of more than one file, sorted.
pub fn circles(graph: &Graph) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = graph.iter().flat_map(|(from, to)| std::iter::once(from).chain(to.keys())).collect();
    let index: BTreeMap<&String, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let names: Vec<&String> = nodes.into_iter().collect();
    let next: Vec<Vec<usize>> = names.iter().map(|n| graph.get(*n).map(|to| to.keys().map(|k| index[k]).collect()).unwrap_or_default()).collect();
    let mut tarjan = Tarjan {
        next: &next,
        order: vec![None; names.len()],
        low: vec![0; names.len()],
        stack: vec![],
        on_stack: vec![false; names.len()],
        counter: 0,
        parts: vec![],
    };
    for v in 0..names.len() {
        if tarjan.order[v].is_none() {
            tarjan.visit(v);
        }
    }
    let mut out: Vec<Vec<String>> = tarjan
        .parts
        .into_iter()
        .filter(|p| p.len() > 1)
        .map(|p| {
            let mut files: Vec<String> = p.into_iter().map(|i| names[i].clone()).collect();
            files.sort();
            files
        })
        .collect();
    out.sort();
    out
}

struct Tarjan<'a> {
    next: &'a [Vec<usize>],
    order: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on_stack: Vec<bool>,
    counter: usize,
    parts: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, v: usize) {
        self.order[v] = Some(self.counter);
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for &w in &self.next[v] {
            match self.order[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(o) if self.on_stack[w] => self.low[v] = self.low[v].min(o),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.order[v] {
            let mut part = vec![];
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                part.push(w);
                if w == v {
                    break;
                }
            }
            self.parts.push(part);
        }
    }
}

/// A circle as lines `a.rs -> b.rs: names`, for a failure message.
pub fn describe(graph: &Graph, circle: &[String]) -> String {
    let mut out = String::new();
    for from in circle {
        for (to, names) in graph.get(from).into_iter().flatten() {
            if circle.contains(to) {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                out.push_str(&format!("  {from} -> {to}: {}\n", names.join(", ")));
            }
        }
    }
    out
}
