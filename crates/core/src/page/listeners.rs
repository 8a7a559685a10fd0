//! Which elements the page gave click-like listeners, as the worker learns it with the debugger
//! (`DOMDebugger.getEventListeners`), and the paths that name them to the content script. Nothing
//! runs in the page's own world for it (docs/architecture.md, "Listener probe").

use serde::{Deserialize, Serialize};

/// Listener types that make an element clickable to a user.
pub const CLICK_KINDS: [&str; 5] = ["click", "mousedown", "pointerdown", "mouseup", "pointerup"];

/// A path step: into the open shadow root of the element reached.
pub const SHADOW_ROOT: i32 = -1;
/// A path step: into the document of the frame element reached.
pub const FRAME_DOCUMENT: i32 = -2;

/// One entry of `DOMDebugger.getEventListeners`' answer (the fields used here).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventListener {
    #[serde(rename = "type")]
    pub kind: String,
    /// Absent for listeners on a window.
    #[serde(default)]
    pub backend_node_id: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EventListeners {
    #[serde(default)]
    pub listeners: Vec<EventListener>,
}

/// The nodes with their own click-like listener, each once, in the order reported.
pub fn clickable_nodes(listeners: &[EventListener]) -> Vec<i64> {
    let mut seen = std::collections::BTreeSet::new();
    listeners.iter().filter(|l| CLICK_KINDS.contains(&l.kind.as_str())).filter_map(|l| l.backend_node_id).filter(|id| seen.insert(*id)).collect()
}

/// What the page added since the worker's last `click_listeners`, as the page layer's
/// MutationObserver saw it: the debugger then looks only there, or not at all. A plain struct, not
/// a tagged enum: serde's tagged derive costs kilobytes of wasm in every reader.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ListenerChanges {
    /// The debugger looks at the whole page again.
    #[serde(default)]
    pub full: bool,
    /// Otherwise: the roots of the subtrees added since, as paths like `click_listeners`' (no
    /// root inside another); none, and the elements kept still stand with no debugger call.
    #[serde(default)]
    pub added: Vec<Vec<i32>>,
}

/// Subtrees added at once past which one whole-page lookup is cheaper than one per subtree.
pub const ADDED_ROOTS: usize = 64;
/// Added nodes the page layer records between two listings; past it, the whole page is looked at.
pub const ADDED_NODES: u32 = 5_000;

/// What the page layer saw since its last `click_listeners`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Seen {
    /// A whole-page lookup was handed over in this document, and every lookup asked for since.
    pub handed: bool,
    /// The shadow roots and frame documents watched are all still in the page.
    pub roots_alive: bool,
    /// More than ADDED_NODES nodes were added.
    pub overflow: bool,
    /// Subtrees added (top-most only).
    pub added_roots: usize,
    /// Some added subtree holds a shadow root or a frame, which a subtree lookup does not enter.
    pub new_roots: bool,
}

/// Where the debugger must look before the next listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Nothing,
    Whole,
    Subtrees,
}

pub fn scope(seen: &Seen) -> Scope {
    if !seen.handed || !seen.roots_alive || seen.overflow || seen.new_roots || seen.added_roots > ADDED_ROOTS {
        Scope::Whole
    } else if seen.added_roots == 0 {
        Scope::Nothing
    } else {
        Scope::Subtrees
    }
}

/// Run in the debugger's own world with one path flattened (its length, then its steps): the
/// element it leads to, from that world's own document, so nothing the page's world holds is
/// touched; undefined when there is none.
pub const RESOLVE_FUNCTION: &str = "function (flat) {
  let n = document;
  for (let i = 1; n && i <= flat[0]; i++) {
    const s = flat[i];
    n = s === -1 ? n.shadowRoot : s === -2 ? (n.tagName === 'IFRAME' || n.tagName === 'FRAME' ? n.contentDocument : null) : n.children ? n.children[s] : null;
  }
  return n && n.nodeType === 1 ? n : undefined;
}";

/// Paths flattened as RESOLVE_FUNCTION and the page layer read them: each one's length, then its steps.
pub fn flatten(paths: &[Vec<i32>]) -> Vec<i32> {
    let mut flat = Vec::with_capacity(paths.iter().map(|p| p.len() + 1).sum());
    for p in paths {
        flat.push(p.len() as i32);
        flat.extend_from_slice(p);
    }
    flat
}

/// Evaluated in the debugger's own world: every open shadow root and same-origin frame document
/// under the top document, each of which the debugger is asked for listeners on (`pierce`, which
/// would do that in one call, crashed renderers whose page was adding and removing frames). The
/// list is kept in that world until a node is added or removed (the page can't see that world).
pub const ROOTS_EXPRESSION: &str = "(() => {
  const kept = globalThis.duskRoots;
  // A frame that navigated leaves its old document without a window; a removed host disconnects.
  if (kept && !kept.dirty && kept.roots.every((r) => (r.nodeType === 9 ? r.defaultView : r.host.isConnected))) return kept.roots;
  const out = [], watch = new MutationObserver(() => { state.dirty = true; watch.disconnect(); });
  const state = { roots: out, dirty: false };
  const visit = (root) => {
    watch.observe(root, { childList: true, subtree: true });
    if (out.length >= 256) return;
    const all = root.querySelectorAll('*');
    for (let i = 0; i < all.length; i++) {
      const el = all[i], s = el.shadowRoot;
      if (s) { out.push(s); visit(s); }
      if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
        let d = null;
        try { d = el.contentDocument; } catch (_) {}
        if (d) { out.push(d); visit(d); }
      }
    }
  };
  visit(document);
  globalThis.duskRoots = state;
  return out;
})()";

/// Run in a world of the debugger's own (`Page.createIsolatedWorld`), never the page's, with the
/// nodes as arguments: each element's path from the top document (SHADOW_ROOT, FRAME_DOCUMENT as
/// above); anything that is not an element is left out. `DOM.resolveNode` may hand over a node
/// wrapped for the page's world, whose prototypes the page controls, so every read goes through
/// this world's own getters (`.call`), and nodes are compared with isSameNode, not ===.
pub const PATHS_FUNCTION: &str = "function (...nodes) {
  const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const parent = get(Node.prototype, 'parentNode'), type = get(Node.prototype, 'nodeType');
  const firsts = { 1: get(Element.prototype, 'firstElementChild'), 9: get(Document.prototype, 'firstElementChild'), 11: get(DocumentFragment.prototype, 'firstElementChild') };
  const next = get(Element.prototype, 'nextElementSibling');
  const host = get(ShadowRoot.prototype, 'host'), view = get(Document.prototype, 'defaultView');
  const same = Node.prototype.isSameNode, index = new Map(), out = [];
  for (const node of nodes) {
    try {
    if (!node || type.call(node) !== 1) continue;
    const steps = [];
    let n = node, t = 1;
    for (;;) {
      const p = t === 1 ? parent.call(n) : null;
      if (p) {
        // Each parent's children are counted once, however many listed nodes are under it.
        let at = index.get(p);
        if (!at) {
          at = new Map();
          for (let c = firsts[type.call(p)].call(p), i = 0; c; c = next.call(c)) at.set(c, i++);
          index.set(p, at);
        }
        let i = at.get(n);
        if (i === undefined) for (const [c, j] of at) if (same.call(c, n)) { i = j; break; }
        if (i === undefined) break;
        steps.push(i);
        n = p;
      } else if (t === 11) {
        steps.push(-1);
        n = host.call(n);
      } else if (t === 9 && view.call(n) && view.call(n).frameElement) {
        steps.push(-2);
        n = view.call(n).frameElement;
      } else break;
      t = type.call(n);
    }
    if (t === 9) out.push(steps.reverse());
    } catch (_) {}
  }
  return out;
}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_click_like_listeners_on_nodes_count_each_node_once() {
        let got: EventListeners = crate::protocol::from_value(serde_json::json!({ "listeners": [
            { "type": "click", "backendNodeId": 7, "useCapture": false },
            { "type": "mousedown", "backendNodeId": 7 },
            { "type": "keydown", "backendNodeId": 8 },
            { "type": "pointerup", "backendNodeId": 9 },
            { "type": "click" },
        ]}))
        .unwrap();
        assert_eq!(clickable_nodes(&got.listeners), vec![7, 9]);
    }

    #[test]
    fn the_path_function_marks_shadow_roots_and_frame_documents_as_the_constants_say() {
        assert!(PATHS_FUNCTION.contains(&format!("steps.push({SHADOW_ROOT})")));
        assert!(PATHS_FUNCTION.contains(&format!("steps.push({FRAME_DOCUMENT})")));
    }

    #[test]
    fn an_unchanged_page_asks_nothing_and_a_new_document_or_big_change_asks_everything() {
        let handed = Seen { handed: true, roots_alive: true, ..Seen::default() };
        assert_eq!(scope(&handed), Scope::Nothing);
        assert_eq!(scope(&Seen { added_roots: 3, ..handed }), Scope::Subtrees);
        assert_eq!(scope(&Seen { added_roots: ADDED_ROOTS + 1, ..handed }), Scope::Whole);
        assert_eq!(scope(&Seen { added_roots: 1, new_roots: true, ..handed }), Scope::Whole);
        assert_eq!(scope(&Seen { overflow: true, ..handed }), Scope::Whole);
        assert_eq!(scope(&Seen { roots_alive: false, ..handed }), Scope::Whole);
        assert_eq!(scope(&Seen { handed: false, ..handed }), Scope::Whole);
    }

    #[test]
    fn changes_travel_as_a_flag_and_paths_and_paths_flatten_with_their_lengths() {
        let added = ListenerChanges { full: false, added: vec![vec![1, SHADOW_ROOT, 0], vec![]] };
        assert_eq!(serde_json::to_value(&added).unwrap(), serde_json::json!({ "full": false, "added": [[1, -1, 0], []] }));
        assert_eq!(crate::protocol::from_value::<ListenerChanges>(serde_json::json!({})).unwrap(), ListenerChanges::default());
        assert_eq!(flatten(&[vec![1, SHADOW_ROOT, 0], vec![], vec![4]]), vec![3, 1, -1, 0, 0, 1, 4]);
    }
}
