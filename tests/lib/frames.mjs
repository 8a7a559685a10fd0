// Records every frame Chromium paints while `action` runs (CDP screencast), to catch white flashes.

/**
 * Frames painted after `action` starts, each as a PNG Buffer, oldest first. A screencast that sent
 * nothing at all (a loaded machine, a page left behind another tab) measured nothing, so the
 * action, which must be repeatable (a reload), runs once more.
 */
export async function framesDuring(ctx, page, action, settleMs = 400) {
  const frames = await recordOnce(ctx, page, action, settleMs);
  return frames.length ? frames : recordOnce(ctx, page, action, settleMs);
}

async function recordOnce(ctx, page, action, settleMs) {
  // Only the tab in front paints; a screenshot forces a fresh composite, so the recorder can't
  // start from a stale frame.
  await page.bringToFront();
  await page.screenshot();
  const cdp = await ctx.newCDPSession(page);
  const frames = [];
  let recording = false, first;
  const firstFrame = new Promise((r) => (first = r));
  cdp.on("Page.screencastFrame", (f) => {
    if (recording) frames.push(Buffer.from(f.data, "base64"));
    first();
    cdp.send("Page.screencastFrameAck", { sessionId: f.sessionId }).catch(() => {});
  });
  await cdp.send("Page.startScreencast", { format: "png", everyNthFrame: 1, maxWidth: 480, maxHeight: 360 });
  // The screencast opens with the last frame the compositor kept, which may predate the page's
  // current state; wait it out so only frames painted during `action` count.
  await Promise.race([firstFrame, new Promise((r) => setTimeout(r, 1000))]);
  await new Promise((r) => setTimeout(r, 100));
  recording = true;
  await action();
  await new Promise((r) => setTimeout(r, settleMs));
  // On a loaded machine the first frames can come late; a page that loaded has painted one.
  for (let waited = 0; !frames.length && waited < 3000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  await cdp.send("Page.stopScreencast").catch(() => {});
  await cdp.detach().catch(() => {});
  return frames;
}
