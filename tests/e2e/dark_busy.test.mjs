// Dark mode on busy pages (tests/fixtures/busy): what the page keeps adding is dark in the frame
// after it is inserted, whether the theme already covered it or it brought a colour of its own.
import assert from "node:assert/strict";
import { aaReport } from "../lib/wcag.mjs";
import { isDark, luminance, resetMemory, setSite, until } from "./dark.mjs";

async function busy(env, name) {
  await resetMemory(env);
  const url = `${env.base}/busy/${name}.html`;
  const page = await env.open(url);
  await setSite(env, url, true);
  await until(() => isDark(page), "the page to turn dark");
  return page;
}

// Each node the page reports is checked at the first frame after the one that follows its
// insertion: its own and its descendants' backgrounds dark, their text light.
async function watchAdded(page, ms) {
  return page.evaluate(async (ms) => {
    const lum = (c) => {
      const m = c.match(/[\d.]+/g);
      const [r, g, b] = m.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return { l: 0.2126 * r + 0.7152 * g + 0.0722 * b, a: m.length > 3 ? Number(m[3]) : 1 };
    };
    const light = [];
    let checked = 0;
    window.__busyAdded = (el) => requestAnimationFrame(() => requestAnimationFrame(() => {
      checked++;
      for (const e of [el, ...el.querySelectorAll("*")]) {
        const s = getComputedStyle(e);
        const bg = lum(s.backgroundColor), fg = lum(s.color);
        if ((bg.a >= 0.5 && bg.l > 0.06) || fg.l < 0.2) light.push(`${e.localName}.${e.className} ${s.backgroundColor} / ${s.color} style="${e.getAttribute("style") ?? ""}"`);
      }
    }));
    await new Promise((r) => setTimeout(r, ms));
    window.__busyAdded = null;
    return { checked, light };
  }, ms);
}

export const tests = [
  ["every card an infinite feed adds, with inline colours of its own, is dark at its first frame", async (env) => {
    const page = await busy(env, "feed");
    try {
      const { checked, light } = await watchAdded(page, 2000);
      assert.ok(checked >= 15, `cards checked: ${checked}`);
      assert.deepEqual(light.slice(0, 5), []);
      await page.evaluate(() => { busy.stop(); return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); });
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures.slice(0, 3)));
    } finally { await resetMemory(env); }
  }],

  ["a class whose rule the page inserts (a new <style>, or insertRule) is themed in the frame its element appears", async (env) => {
    const page = await busy(env, "rules");
    try {
      const { checked, light } = await watchAdded(page, 1500);
      assert.ok(checked >= 8, `elements checked: ${checked}`);
      assert.deepEqual(light, []);
    } finally { await resetMemory(env); }
  }],

  ["a sheet that arrives after its element (a <link>, a <style>'s @import, both slow) is themed in the frame after it loads", async (env) => {
    const page = await busy(env, "rules");
    try {
      const seen = await page.evaluate(() => Promise.all([["late-import", (el) => { el.textContent = '@import url("late-import.css?delay=400");'; }, "style"],
        ["late-link", (el) => { el.rel = "stylesheet"; el.href = "late-link.css?delay=400"; }, "link"]].map(([cls, fill, tag]) => new Promise((done) => {
        const box = document.createElement("div");
        box.className = cls;
        box.textContent = cls;
        document.getElementById("out").prepend(box);
        const sheet = document.createElement(tag);
        fill(sheet);
        sheet.addEventListener("load", () => requestAnimationFrame(() => requestAnimationFrame(() => done(`${cls} ${getComputedStyle(box).backgroundColor}`))));
        document.head.append(sheet);
      }))));
      for (const s of seen) {
        const [r, g, b] = s.match(/[\d.]+/g).map(Number);
        assert.ok(r + g + b < 3 * 80 && !s.includes("0, 0, 0, 0"), `dark at the frame after its sheet loaded: ${seen.join(" / ")}`);
      }
    } finally { await resetMemory(env); }
  }],

  ["a rule inserted at the start of a CSS-in-JS sheet, or after the page deleted one, is themed in the frame its element appears", async (env) => {
    const page = await busy(env, "rules");
    try {
      const colours = await page.evaluate(() => new Promise((done) => {
        const sheet = document.getElementById("css-in-js").sheet;
        const add = (cls) => { const el = document.createElement("div"); el.className = cls; el.textContent = cls; document.getElementById("out").prepend(el); return el; };
        const read = (els) => els.map((el) => getComputedStyle(el).backgroundColor);
        sheet.insertRule(".first-rule { background: #fafafa; color: #111 }", 0);
        const first = add("first-rule");
        requestAnimationFrame(() => requestAnimationFrame(() => {
          const one = read([first]);
          sheet.deleteRule(1);
          sheet.insertRule(".after-delete { background: #f4f4f4; color: #222 }", sheet.cssRules.length);
          sheet.insertRule(".after-delete-2 { background: #fffbe6; color: #333 }", sheet.cssRules.length);
          const more = [add("after-delete"), add("after-delete-2")];
          requestAnimationFrame(() => requestAnimationFrame(() => done([...one, ...read(more)])));
        }));
      }));
      for (const c of colours) {
        const [r, g, b] = c.match(/[\d.]+/g).map(Number);
        assert.ok(r + g + b < 3 * 80, `backgrounds at their first frame: ${colours.join(" / ")}`);
      }
    } finally { await resetMemory(env); }
  }],

  ["sheets the page adopts while themed (pushed, set whole, put first) and a rule inserted into one are themed in the frame their element appears", async (env) => {
    const page = await busy(env, "rules");
    try {
      const colours = await page.evaluate(() => new Promise((done) => {
        const add = (cls) => { const el = document.createElement("div"); el.className = cls; el.textContent = cls; document.getElementById("out").prepend(el); return el; };
        const sheet = (css) => { const s = new CSSStyleSheet(); s.replaceSync(css); return s; };
        const els = [], seen = [];
        const pushed = sheet(".adopted-pushed { background: #fdf6e3; color: #222 }");
        const steps = [
          () => { document.adoptedStyleSheets.push(pushed); els.push(add("adopted-pushed")); },
          () => { pushed.insertRule(".adopted-inserted { background: #eef6ff; color: #222 }", pushed.cssRules.length); els.push(add("adopted-inserted")); },
          () => { document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet(".adopted-set { background: #f0fff0; color: #222 }")]; els.push(add("adopted-set")); },
          () => { document.adoptedStyleSheets = [sheet(".adopted-first { background: #fff0f5; color: #222 }"), ...document.adoptedStyleSheets]; els.push(add("adopted-first")); },
        ];
        // Each step in a frame of its own, its element read at the first frame after the next, as
        // the other checks here.
        const next = (i) => {
          if (i === steps.length) return done(seen);
          steps[i]();
          requestAnimationFrame(() => requestAnimationFrame(() => { seen.push(`${els[i].className} ${getComputedStyle(els[i]).backgroundColor}`); next(i + 1); }));
        };
        requestAnimationFrame(() => next(0));
      }));
      for (const c of colours) {
        const [r, g, b] = c.match(/[\d.]+/g).map(Number);
        assert.ok(r + g + b < 3 * 80, `backgrounds at their first frame: ${colours.join(" / ")}`);
      }
    } finally { await resetMemory(env); }
  }],

  ["forty rules added a frame apart keep the page's order once Dusk folds its sheets: the later rule for a class wins", async (env) => {
    const page = await busy(env, "rules");
    try {
      const seen = await page.evaluate(() => new Promise((done) => {
        const style = (css) => { const s = document.createElement("style"); s.textContent = css; document.head.append(s); };
        const el = document.createElement("div");
        el.className = "late-win";
        el.textContent = "a class restyled by a later rule";
        document.getElementById("out").prepend(el);
        let n = 0;
        const frame = () => {
          if (n === 0) style(".late-win { background: #fff3c4; color: #222 }");
          else if (n === 36) style(".late-win { background: #d6e8ff; color: #222 }");
          else style(`.filler-${n} { background: #f${n % 10}f${n % 10}f0 }`);
          if (++n < 40) requestAnimationFrame(frame);
          else requestAnimationFrame(() => requestAnimationFrame(() => done(getComputedStyle(el).backgroundColor)));
        };
        requestAnimationFrame(frame);
      }));
      const [r, g, b] = seen.match(/[\d.]+/g).map(Number);
      assert.ok(r + g + b < 3 * 80, `dark: ${seen}`);
      assert.ok(b > r + 8, `the later, blue rule's mapped colour: ${seen}`);
    } finally { await resetMemory(env); }
  }],

  ["a form the page adds whose fields shadow its own methods (getAttribute, querySelectorAll, matches) is themed, and so is every card after it", async (env) => {
    const page = await busy(env, "feed");
    try {
      const bg = await page.evaluate(() => new Promise((done) => {
        const form = document.createElement("form");
        form.setAttribute("style", "background: #fdfdfd; color: #222; padding: 8px");
        form.id = "shadowing";
        form.innerHTML = ["getAttribute", "setAttribute", "hasAttribute", "querySelectorAll", "matches", "getRootNode", "localName", "namespaceURI"]
          .map((n) => `<input name="${n}" value="${n}">`).join("") + "Form text";
        document.body.prepend(form);
        requestAnimationFrame(() => requestAnimationFrame(() => done(getComputedStyle(form).backgroundColor)));
      }));
      const [r, g, b] = bg.match(/[\d.]+/g).map(Number);
      assert.ok(r + g + b < 3 * 80, `the form's background at its first frame: ${bg}`);
      const { checked, light } = await watchAdded(page, 1500);
      assert.ok(checked >= 10, `cards checked after the form: ${checked}`);
      assert.deepEqual(light.slice(0, 5), []);
    } finally { await resetMemory(env); }
  }],

  ["cells recoloured every 100 ms by inline style, and a route that swaps the whole body, stay dark", async (env) => {
    for (const name of ["dashboard", "spa"]) {
      const page = await busy(env, name);
      try {
        const { checked, light } = await watchAdded(page, 1500);
        assert.ok(checked >= 2, `${name}: checked ${checked}`);
        assert.deepEqual(light.slice(0, 5), [], name);
      } finally { await page.close(); }
    }
    await resetMemory(env);
  }],

  ["an inline colour the page changes, sets back to one the theme knows, or removes is followed by the next frame; switched off, the page's own colours are back", async (env) => {
    const page = await busy(env, "feed");
    try {
      // Style, then two frames: the batch runs in the first, the check after it has painted.
      const restyle = (style) => page.evaluate((style) => new Promise((done) => {
        const el = document.getElementById("probe") ?? document.body.appendChild(Object.assign(document.createElement("div"), { id: "probe", textContent: "probe" }));
        if (style === null) el.removeAttribute("style"); else el.setAttribute("style", style);
        requestAnimationFrame(() => requestAnimationFrame(() => done(getComputedStyle(el).backgroundColor)));
      }), style);
      const fresh = await restyle("background: #ffeecc; width: 50%");
      assert.ok(luminance(fresh) < 0.06, `a new colour: ${fresh}`);
      const other = await restyle("background-color: rgb(250, 250, 210)");
      assert.ok(luminance(other) < 0.06 && other !== fresh, `changed to another new colour: ${other} (was ${fresh})`);
      // An avatar's style, which the theme already has a rule for.
      const [known, avatar] = await page.evaluate(() => { const a = document.querySelector(".avatar"); return [a.getAttribute("style"), getComputedStyle(a).backgroundColor]; });
      assert.equal(await restyle(known), avatar, "a known value looks as the avatars that carry it");
      assert.equal(await restyle("width: 40%"), "rgba(0, 0, 0, 0)", "a style with no colour keeps none of the old one");
      assert.equal(await restyle(null), "rgba(0, 0, 0, 0)");
      await restyle(known);
      await setSite(env, page.url(), false);
      await until(async () => !(await isDark(page)), "the page to turn light");
      const left = await page.evaluate(() => {
        const a = document.querySelector(".avatar"), p = document.getElementById("probe");
        return { avatar: [a.style.backgroundColor, getComputedStyle(a).backgroundColor], probe: [p.style.backgroundColor, getComputedStyle(p).backgroundColor] };
      });
      assert.equal(left.avatar[1], left.avatar[0], "the avatar shows its own colour");
      assert.equal(left.probe[1], left.probe[0], "the probe shows its own colour");
      assert.equal(await page.evaluate(() => document.querySelectorAll("[data-dusk-i]").length), 0, "no marker is left");
    } finally { await resetMemory(env); }
  }],
  ["an element the page adds to a cell and moves on in the same task, beside cells whose text changes, is dark at its next frame", async (env) => {
    const page = await busy(env, "dashboard");
    try {
      const bg = await page.evaluate(() => new Promise((done) => {
        // Row headers: the page's tick rewrites every <td>, never these.
        const [a, b] = document.querySelectorAll("tr + tr > th");
        const badge = Object.assign(document.createElement("span"), { textContent: "new" });
        badge.setAttribute("style", "background-color: #ffe4b5; color: #222");
        // Added to a cell left with text only, then moved into another cell that keeps it.
        a.append(badge);
        a.textContent = "7";
        b.textContent = "";
        b.append(badge);
        requestAnimationFrame(() => requestAnimationFrame(() => done(getComputedStyle(badge).backgroundColor)));
      }));
      assert.ok(luminance(bg) < 0.06, `the moved badge's background: ${bg}`);
    } finally { await resetMemory(env); }
  }],
  ["a page that writes thousands of distinct inline values stays dark once the theme forgets the oldest, and an old value that comes back is dark again", async (env) => {
    const page = await busy(env, "feed");
    try {
      const seen = await page.evaluate(() => new Promise((done) => {
        // 6 frames of 900 new values each (a width per element): past what the theme remembers.
        const box = document.createElement("div");
        document.body.append(box);
        const els = [];
        const style = (i) => `width: ${i}px; background: #fafafa; color: #222`;
        let frame = 0;
        const add = () => {
          for (let i = 0; i < 900; i++) {
            const e = document.createElement("p");
            e.textContent = "x";
            e.setAttribute("style", style(frame * 900 + i));
            box.append(e);
            els.push(e);
          }
          if (++frame < 6) return requestAnimationFrame(add);
          requestAnimationFrame(() => requestAnimationFrame(() => {
            const last = getComputedStyle(els[els.length - 1]);
            // The first value again, on a new element and on the last one.
            const back = document.createElement("p");
            back.textContent = "x";
            back.setAttribute("style", style(0));
            box.append(back);
            els[els.length - 1].setAttribute("style", style(1));
            requestAnimationFrame(() => requestAnimationFrame(() => {
              const read = (e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color];
              // Every element the page wrote, each as it looks now.
              const light = els.map(read).filter(([bg]) => bg !== read(els[0])[0]).length;
              done({ last: [last.backgroundColor, last.color], back: read(back), restyled: read(els[els.length - 1]), first: read(els[0]), light });
            }));
          }));
        };
        requestAnimationFrame(add);
      }));
      const { light, ...some } = seen;
      assert.equal(light, 0, "elements whose background differs from the first one's");
      for (const [what, [bg, fg]] of Object.entries(some)) {
        assert.ok(luminance(bg) < 0.06 && luminance(fg) >= 0.2, `${what}: background ${bg}, text ${fg}`);
      }
    } finally { await resetMemory(env); }
  }],
  ["an element the page recolours to a colour the theme knows is dark at its next frame; switched off, it shows the page's own colours again", async (env) => {
    const page = await busy(env, "dashboard");
    try {
      // A row header the page's tick never touches, recoloured as the cells are: a value the theme
      // already maps, then another one, with the page's own text colour.
      const recolour = (i) => page.evaluate((i) => new Promise((done) => {
        const th = document.querySelectorAll("tr + tr > th")[3];
        th.style.backgroundColor = `rgb(255, ${255 - i * 6}, ${230 - i * 7})`;
        th.style.color = "rgb(20, 20, 20)";
        requestAnimationFrame(() => requestAnimationFrame(() => { const s = getComputedStyle(th); done([s.backgroundColor, s.color]); }));
      }), i);
      for (const i of [5, 20, 5]) {
        const [bg, fg] = await recolour(i);
        assert.ok(luminance(bg) < 0.06 && luminance(fg) >= 0.2, `step ${i}: background ${bg}, text ${fg}`);
      }
      await setSite(env, page.url(), false);
      await until(async () => !(await isDark(page)), "the page to turn light");
      const th = await page.evaluate(() => {
        const e = document.querySelectorAll("tr + tr > th")[3], s = getComputedStyle(e);
        return { own: [e.style.backgroundColor, e.style.color], shown: [s.backgroundColor, s.color] };
      });
      assert.deepEqual(th.own, ["rgb(255, 225, 195)", "rgb(20, 20, 20)"], "the page's own values are back in its style");
      assert.deepEqual(th.shown, th.own);
    } finally { await resetMemory(env); }
  }],

  ["a card with a new inline colour and a new class's rule, added in the page's own frame callback, is dark in that same frame", async (env) => {
    const page = await busy(env, "rules");
    try {
      const seen = await page.evaluate(() => new Promise((done) => {
        busy.stop();
        setTimeout(() => {
          // Two callbacks of one frame: the page adds in the first, the second reads what that frame will paint.
          requestAnimationFrame(() => {
            const style = document.createElement("style");
            style.textContent = ".same-frame-rule { background: rgb(255, 236, 179); color: rgb(30, 30, 30) }";
            document.head.append(style);
            const inline = Object.assign(document.createElement("div"), { textContent: "inline" });
            inline.setAttribute("style", "background: rgb(250, 235, 215); color: rgb(40, 20, 10)");
            const ruled = Object.assign(document.createElement("div"), { className: "same-frame-rule", textContent: "ruled" });
            document.getElementById("out").append(inline, ruled);
            window.__sameFrame = [inline, ruled];
          });
          requestAnimationFrame(() => done(window.__sameFrame.map((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color])));
        }, 300);
      }));
      for (const [name, [bg, fg]] of [["inline", seen[0]], ["ruled", seen[1]]]) {
        assert.ok(luminance(bg) < 0.06 && luminance(fg) > 0.2, `${name}: ${bg} / ${fg} in the frame it was added`);
      }
    } finally { await resetMemory(env); }
  }],
];
