// A dark site's page while the parser builds it: the layer follows it frame by frame (no
// MutationObserver until the DOM is parsed), so what the parser adds after a long wait, with a
// sheet or an inline colour of its own, is dark once parsed, and what the page adds later still is.
import assert from "node:assert/strict";
import { fixture, isDark, luminance, resetMemory, setSite, until } from "./dark.mjs";

export const tests = [
  ["a page parsed in two parts (a late script between them) is dark while it waits, once parsed, and for what it adds after", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "parsed-late.html");
    const page = await env.open(url);
    await setSite(env, url, true);
    await until(() => isDark(page), "the page to turn dark");
    // Reloaded with the site remembered: the parser stops at the late script for 1.5 s.
    const reload = page.reload({ waitUntil: "load" });
    await until(() => page.evaluate(() => document.readyState === "loading" && !!document.getElementById("early")).catch(() => false), "the first part to be parsed");
    assert.ok(await isDark(page, "#early"), "the first part is dark while the parser waits");
    assert.equal(await page.evaluate(() => document.getElementById("late")), null, "control: the second part is not parsed yet");
    await reload;
    assert.equal(await page.evaluate(() => document.documentElement.dataset.lateScript), "ran", "control: the late script ran");
    for (const sel of ["#early", "#late", "#inline"]) await until(() => isDark(page, sel), `${sel} to be dark once parsed`);
    // After the DOM is parsed the observer follows the page: a light element it adds is dark two frames later.
    const added = await page.evaluate(() => new Promise((resolve) => {
      const el = document.createElement("section");
      el.id = "added";
      el.setAttribute("style", "background: #fdfdfd; color: #010101");
      el.textContent = "Added by the page after it was parsed.";
      document.body.append(el);
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(getComputedStyle(el).backgroundColor)));
    }));
    assert.ok(luminance(added) < 0.05, `the added element is dark two frames after it was added: ${added}`);
  }],
];
