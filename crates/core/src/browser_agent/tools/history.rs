//! go_back, go_forward and refresh: a navigation of the current tab, waited for like `navigate`.

use super::action::{output, Ctx, NoArgs};
use crate::agent::{Gate, ToolOutput};
use crate::browser_agent::browser::{Browser, Navigation};
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;

pub struct GoBack;
pub struct GoForward;
pub struct Refresh;

/// A page the browser brings back from its back/forward cache may come without a reachable
/// content script (Chromium closes extension channels to cached pages); after this long it is
/// reloaded instead.
const CACHED_PAGE_WAIT_MS: f64 = 2500.0;

async fn go<B: Browser>(ctx: &Ctx<'_, '_, B>, nav: Navigation, done: &str) -> Result<ToolOutput, String> {
    let s = ctx.host;
    let before = s.current_doc().await.map(|d| d.doc);
    s.through_dialogs(s.tab(), s.browser.navigate(s.tab(), &nav)).await?;
    let first = match nav {
        Navigation::Back | Navigation::Forward => s.wait_ready_within(s.tab(), before.as_deref(), CACHED_PAGE_WAIT_MS).await,
        _ => s.wait_ready(s.tab(), before.as_deref()).await,
    };
    let doc = match first {
        Ok(doc) => doc,
        Err(e) if e.contains("can't read") => return Err(format!("{done}, but {e}")),
        Err(_) if nav != Navigation::Reload => {
            s.browser.navigate(s.tab(), &Navigation::Reload).await?;
            s.wait_ready(s.tab(), None).await.map_err(|e| format!("{done}, but {e}"))?
        }
        Err(e) => return Err(format!("{done}, but {e}")),
    };
    let url = doc.url.clone();
    s.run.borrow_mut().doc = doc.doc;
    let (changes, image) = s.after_action(format!("{done}: {url}"), &[]).await;
    Ok(output(changes, image, format!("{done} → {url}")))
}

macro_rules! history_tool {
    ($ty:ty, $name:literal, $doing:literal, $nav:expr, $done:literal) => {
        impl<B: Browser> crate::agent::Tool<BrowserSession<'_, B>> for $ty {
            type Args = NoArgs;
            fn name(&self) -> &'static str {
                $name
            }
            fn description(&self) -> &'static str {
                $doing
            }
            async fn gate(&self, _a: &NoArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
                ctx.host.gate(Action::Other, None).await
            }
            async fn execute(&self, _a: NoArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
                go(ctx, $nav, $done).await
            }
        }
    };
}

history_tool!(GoBack, "go_back", "Goes back to the previous page in this tab's history.", Navigation::Back, "Went back");
history_tool!(GoForward, "go_forward", "Goes forward in this tab's history.", Navigation::Forward, "Went forward");
history_tool!(Refresh, "refresh", "Reloads the current page.", Navigation::Reload, "Reloaded");
