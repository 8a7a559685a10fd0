//! What goes on top of the instant theme: the site's refinement, its adjustment, the agent's preview.

use super::*;

/// A new refinement (stored, or a dark agent's preview): rebuilt and applied at once.
#[inline(never)]
pub fn set_refine(css: &str) {
    let changed = with(|s| {
        if s.refine == css {
            return false;
        }
        s.refine = css.to_string();
        s.prepared = None;
        s.last_input.clear();
        true
    });
    if changed {
        frames::restyle_all();
        run_batch();
    }
}

/// A new adjustment: stored ones rebuild the theme at once (tabs in the background too); the
/// popup's live preview (`at_next_frame`) once per frame, however many slider steps arrive in it.
#[inline(never)]
pub fn set_adjust(adjust: Adjust, at_next_frame: bool) {
    let changed = with(|s| {
        if s.adjust == adjust {
            return false;
        }
        s.adjust = adjust;
        s.prepared = None;
        s.last_input.clear();
        true
    });
    if !changed {
        // The stored value a preview already set: a background tab must not wait for its frame.
        if !at_next_frame && watch::pending() {
            run_batch();
        }
        return;
    }
    frames::restyle_all();
    if at_next_frame {
        watch::schedule();
    } else {
        run_batch();
    }
}

/// The dark agent's preview: `css` after the instant theme, on a page where dark mode is on.
#[inline(never)]
pub fn preview(css: &str) -> Result<(), String> {
    if with(|s| s.phase) != PagePhase::Active {
        return Err("dark mode is not on for this page; switch it on first".into());
    }
    set_refine(css);
    Ok(())
}

/// The start of the document's instant theme (without the refinement), for the agent's prompt.
pub fn instant_css_excerpt(max: usize) -> String {
    with(|s| {
        // The refinement is built in at the theme's end.
        let Some(doc) = s.installed.first().map(|i| &i.css) else { return String::new() };
        doc.start(doc.len().saturating_sub(s.refine.len()), max).to_string()
    })
}
