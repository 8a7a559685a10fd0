// Scripted models that are policies: each reads only the request the LLM server received (the
// task and page summary of the first user message, its own earlier tool calls and their results)
// and answers with the next tool call(s) or a final answer. Nothing here looks at the page.
// Use as `env.llm.setDefault((req) => policies[task](parseRequest(req)))`.

export * from "./agent_request.mjs";
import { answer, elementsOf, instruction, knownElements, lastListing, lastTurn, toolCall, toolCalls } from "./agent_request.mjs";

const norm = (s) => String(s ?? "").replace(/\s+/g, " ").trim().toLowerCase();
/** The first element with exactly this text, else the first whose text matches ignoring case and spacing. */
export function byText(list, text, pred = () => true) {
  return list.find((e) => pred(e) && e.text === text) ?? list.find((e) => pred(e) && norm(e.text) === norm(text));
}

const TEXT_TYPES = new Set([undefined, "", "text", "search", "email", "tel", "url", "number"]);
const isTextField = (e) => (e.tag === "input" && TEXT_TYPES.has(e.type)) || e.tag === "textarea";
const isButton = (e) => e.tag === "button" || e.role === "button" || (e.tag === "input" && ["submit", "button"].includes(e.type));

/** A final answer if any call of the last turn failed (declined, blocked, stale, …), else null. */
export function failure(parsed) {
  const bad = lastTurn(parsed).find((c) => c.result && c.result.success === false);
  if (!bad) return null;
  const why = bad.result.error ?? "it failed";
  if (/the user declined/i.test(why)) return answer(`You declined \`${bad.name}\`, so I stopped there.`);
  return answer(`I could not finish: \`${bad.name}\` failed (${why}).`);
}

const lost = (what) => answer(`I could not find ${what} on the page, so I stopped.`);

// ---------------------------------------------------------------- MiniWoB policies

/**
 * The common shape: list the page, plan every action from the listing, run them in one turn, then
 * answer. `plan(listing, parsed)` returns an array of [tool, args] or a reply (when it gives up).
 */
function listThenAct(re, listArgs, plan, done) {
  return (parsed) => {
    const m = instruction(parsed, re);
    if (!m) return answer("I could not find the page's instructions.");
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", listArgs);
    if (parsed.last.name === "get_elements") {
      const steps = plan(m, lastListing(parsed), parsed);
      return Array.isArray(steps) ? toolCalls(...steps) : steps;
    }
    return answer(done(m));
  };
}

const submitOf = (list, label = "Submit") => byText(list, label, isButton);

/** List inputs, type `text` into the field labelled `label`, answer with how it went. */
export const typePolicy = (label, text) => (p) => {
  if (!p.last) return toolCall("get_elements", { filter: "input" });
  if (p.last.name === "get_elements") {
    const el = byText(lastListing(p), label);
    return el ? toolCall("type", { index: el.index, text }) : answer(`There is no "${label}" field.`);
  }
  return answer(p.last.result.success ? `Typed into "${label}".` : `Could not type: ${p.last.result.error}`);
};

export const policies = {
  "click-button": listThenAct(
    /Click on the "(.*)" button/,
    { filter: "button" },
    ([, label], list) => {
      const b = byText(list, label, isButton);
      return b ? [["click", { index: b.index }]] : lost(`a "${label}" button`);
    },
    ([, label]) => `Clicked the "${label}" button.`,
  ),

  "enter-text": listThenAct(
    /Enter "(.*)" into the text field/,
    {},
    ([, text], list) => {
      const field = list.find(isTextField);
      const submit = submitOf(list);
      if (!field || !submit) return lost("the text field and its Submit button");
      return [["type", { index: field.index, text }], ["click", { index: submit.index }]];
    },
    ([, text]) => `Entered "${text}" and pressed Submit.`,
  ),

  "click-checkboxes": listThenAct(
    /^Select (.*) and click Submit\.?$/,
    {},
    ([, names], list) => {
      const wanted = names === "nothing" ? [] : names.split(", ").map((n) => n.trim());
      const boxes = list.filter((e) => e.type === "checkbox");
      const submit = submitOf(list);
      if (!submit) return lost("the Submit button");
      const missing = wanted.filter((n) => !boxes.some((b) => b.text === n));
      if (missing.length) return lost(`the checkbox${missing.length > 1 ? "es" : ""} ${missing.join(", ")}`);
      const toggles = boxes.filter((b) => wanted.includes(b.text) !== Boolean(b.checked));
      return [...toggles.map((b) => ["click", { index: b.index }]), ["click", { index: submit.index }]];
    },
    ([, names]) => `Selected ${names} and clicked Submit.`,
  ),

  "choose-list": listThenAct(
    /^Select (.*) from the list and click Submit/,
    {},
    ([, item], list) => {
      const select = list.find((e) => e.tag === "select");
      const submit = submitOf(list);
      if (!select || !submit) return lost("the list and its Submit button");
      return [["select", { index: select.index, text: item }], ["click", { index: submit.index }]];
    },
    ([, item]) => `Selected ${item} and clicked Submit.`,
  ),

  /** The link may be on any tab: look at the open one, else open the next tab and list again in the same turn. */
  "click-tab-2": (parsed) => {
    const m = instruction(parsed, /click on the link "(.*)"/i);
    if (!m) return answer("I could not find the page's instructions.");
    const word = m[1];
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", {});
    const isTab = (e) => /^Tab #\d+$/.test(e.text);
    const tabs = knownElements(parsed).filter((e) => isTab(e) && e.tag === "a");
    const tabIndices = new Set(knownElements(parsed).filter(isTab).map((e) => e.index));
    const last = parsed.last;
    if (last.name === "click" && !tabIndices.has(last.args.index)) return answer(`Clicked the link "${word}".`);
    const link = byText(lastListing(parsed), word, (e) => !isTab(e) && !e.offscreen);
    if (link) return toolCall("click", { index: link.index });
    // The first tab is open at the start; after that, each tab this policy opened.
    const seen = new Set(["Tab #1", ...parsed.calls.filter((c) => c.name === "click").map((c) => tabs.find((t) => t.index === c.args.index)?.text)]);
    const next = [...tabs].sort((a, b) => a.text.localeCompare(b.text)).find((t) => !seen.has(t.text));
    if (!next) return lost(`the link "${word}" on any tab`);
    return toolCalls(["click", { index: next.index }], ["get_elements", {}]);
  },

  /** Type the start, give the drop-down time to open (wait answers with what appeared), click a matching item, Submit. */
  "use-autocomplete": (parsed) => {
    const m = instruction(parsed, /starts with "(.*?)"(?: and ends with "(.*?)")?/);
    if (!m) return answer("I could not find the page's instructions.");
    const [, start, end = ""] = m;
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", {});
    const first = elementsOf(parsed.calls.find((c) => c.name === "get_elements"));
    const field = first.find(isTextField);
    const submit = submitOf(first);
    if (!field || !submit) return lost("the text field and its Submit button");
    const clicks = parsed.calls.filter((c) => c.name === "click");
    if (clicks.some((c) => c.args.index === submit.index)) return answer(`Entered an item that starts with "${start}"${end ? ` and ends with "${end}"` : ""}.`);
    if (!parsed.calls.some((c) => c.name === "type")) return toolCalls(["type", { index: field.index, text: start }], ["wait", { seconds: 0.6 }]);
    const fits = (e) => !["ul", "ol", "input", "button", "select"].includes(e.tag) && e.text.startsWith(start) && e.text.endsWith(end) && e.text.length < 60;
    const shortest = (list) => list.filter(fits).sort((a, b) => a.text.length - b.text.length)[0];
    const item = shortest(elementsOf(parsed.last)) ?? shortest(knownElements(parsed));
    if (item) return toolCalls(["click", { index: item.index }], ["click", { index: submit.index }]);
    const waits = parsed.calls.filter((c) => c.name === "wait").length;
    if (waits >= 4) return lost(`a suggestion that starts with "${start}"`);
    return toolCall("wait", { seconds: 0.5 + waits * 0.5 });
  },

  "login-user": listThenAct(
    /username "(.*)" and the password "(.*)"/,
    {},
    ([, user, password], list) => {
      const name = byText(list, "Username", isTextField) ?? list.find(isTextField);
      const secret = byText(list, "Password", (e) => e.type === "password") ?? list.find((e) => e.type === "password");
      const login = byText(list, "Login", isButton) ?? list.find(isButton);
      if (!name || !secret || !login) return lost("the login form");
      return [["type", { index: name.index, text: user }], ["type", { index: secret.index, text: password }], ["click", { index: login.index }]];
    },
    ([, user]) => `Logged in as ${user}.`,
  ),

  "click-dialog": listThenAct(
    /Close the dialog/,
    { filter: "button" },
    (_m, list) => {
      const close = list.find((e) => /^(close|x|×|✕)$/i.test(e.text.trim()));
      return close ? [["click", { index: close.index }]] : lost("the dialog's close button");
    },
    () => "Closed the dialog.",
  ),

  "enter-password": listThenAct(
    /password "(.*)" into both/,
    {},
    ([, password], list) => {
      const fields = list.filter((e) => e.type === "password");
      const submit = submitOf(list);
      if (fields.length < 2 || !submit) return lost("both password fields and the Submit button");
      return [...fields.map((f) => ["type", { index: f.index, text: password }]), ["click", { index: submit.index }]];
    },
    () => "Entered the password twice and pressed Submit.",
  ),

  /** The link words are script-clickable spans; if the on-screen list lacks it, list the whole page once. */
  "click-link": (parsed) => {
    const m = instruction(parsed, /Click on the link "(.*)"/);
    if (!m) return answer("I could not find the page's instructions.");
    const word = m[1];
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", {});
    if (parsed.last.name === "click") return answer(`Clicked the link "${word}".`);
    const link = byText(lastListing(parsed), word);
    if (link) return toolCall("click", { index: link.index });
    if (parsed.calls.filter((c) => c.name === "get_elements").length < 2) return toolCall("get_elements", { visible_only: false });
    return lost(`the link "${word}"`);
  },
};
