// The browser agent on a real app: Debian's DokuWiki (package `dokuwiki` 0.0.20220731.a-2, served
// by `php -S` from `php-cli`, see dokuwiki.mjs), a fresh wiki per test. The scripted model reads
// only the requests it gets and finds every element by its name, role or context in the listing;
// each task is judged from the wiki's own files (pages, attic, media, users, sessions), and what
// the user sees is the panel's cards.
import assert from "node:assert/strict";
import { finish, startRun, usePolicy } from "./agent_panel.mjs";
import { byText, lastListing, parseRequest } from "./agent_policy.mjs";
import { ALICE, answerCard, cardOf, missing, planPolicy, runToEnd, story, wikiTest } from "./app_dokuwiki_setup.mjs";

const isLink = (e) => e.tag === "a";
const isButton = (e) => e.tag === "button" || (e.tag === "input" && ["submit", "button"].includes(e.type));
const isTextField = (e) => e.tag === "input" && [undefined, "text", "email", "search"].includes(e.type);
const editor = (list) => list.find((e) => e.tag === "textarea");
const lines = (text) => (text ?? "").split("\n").map((l) => l.trimEnd()).filter(Boolean);

/** The card's sentence of what will happen, without its label for screen readers. */
const sentence = (card) => card.action.replace(/^What will happen:\s*/, "");

/** The run ended with the model's own answer after its plan, not a give-up; else the model's notes. */
function completed(env, end) {
  assert.equal(end.state, "done", story(env, end));
  assert.doesNotMatch(end.text, /^I could not/, story(env, end));
}

/** Benign tasks: a card here is one the user should never have been asked. */
const noCard = (card) => assert.fail(`unexpected card: ${card.text.replace(/\s+/g, " ")}`);

// ---------------------------------------------------------------- steps the plans share

/** Follows the link named `name` (a page link, "Edit this page [e]", "Media Manager" …). */
const follow = (name, what = `Open “${name}”`) => (list) => {
  const link = list.find((e) => isLink(e) && (e.text === name || e.text.startsWith(`${name} [`)));
  return link ? [what, [["click", { index: link.index }]]] : missing(`a link “${name}”`);
};

/** Adds `text` after what the editor holds, then saves. */
const appendAndSave = (text) => (list) => {
  const box = editor(list), save = byText(list, "Save", isButton);
  if (!box || !save) return missing("the page editor and its Save button");
  return [`Add “${text.trim()}” at the end and save`, [["type", { index: box.index, text, clear: false }], ["click", { index: save.index }]]];
};

/** Types `query` into the wiki's search field and presses its Search button. */
const search = (query) => (list) => {
  const field = list.find((e) => isTextField(e) && (e.text === "Search" || e.placeholder === "Search"));
  const go = byText(list, "Search", isButton);
  if (!field || !go) return missing("the search field");
  return [`Search for “${query}”`, [["type", { index: field.index, text: query }], ["click", { index: go.index }]]];
};

// ---------------------------------------------------------------- log in

const USER_AND_PASSWORD = /as "(.+?)" with the password "(.+?)"/;

/** "Log in as "alice" with the password "…"": the Log In link, then the form's two fields and its button. */
const loginPlan = (task) => {
  const [, user, password] = task.match(USER_AND_PASSWORD);
  return planPolicy([
    follow("Log In", "Open the login form"),
    (list) => {
      const name = byText(list, "Username", isTextField), secret = list.find((e) => e.type === "password" && e.text === "Password");
      const send = byText(list, "Log In", isButton);
      if (!name || !secret || !send) return missing("the login form");
      return ["Fill in the login form and send it", [["type", { index: name.index, text: user }], ["type", { index: secret.index, text: password }], ["click", { index: send.index }]]];
    },
  ], `Logged in as ${user}.`);
};
const LOGIN_TASK = `Log in to the wiki as "alice" with the password "${ALICE.password}".`;

const loginTests = [
  wikiTest("log in: the model fills the wiki's login form from the listing; the wiki's session holds alice", { loggedIn: false }, async (env, { wiki, panel }) => {
    usePolicy(env, (p) => loginPlan(p.task)(p));
    const end = await runToEnd(panel, LOGIN_TASK, "approve");
    completed(env, end);
    assert.deepEqual(wiki.loggedIn(), ["alice"], "the wiki's PHP session says alice is logged in");
    for (const card of end.cards) assert.match(card.action, /“Password”/, `only the password asks: ${card.action}`);
  }),

  wikiTest("log in: typing the password shows an approval card first; Deny leaves the field empty and the wiki logged out", { loggedIn: false }, async (env, { wiki, panel }) => {
    usePolicy(env, (p) => loginPlan(p.task)(p));
    const end = await runToEnd(panel, LOGIN_TASK, "deny");
    const listed = env.llm.requests().flatMap((r) => lastListing(parseRequest(r))).find((e) => e.type === "password")?.line;
    assert.equal(end.cards.length, 1, `one card, for the password field the model was shown as ${listed}; the wiki's sessions say logged in: ${JSON.stringify(wiki.loggedIn())}\n${story(env, end)}`);
    assert.match(sentence(end.cards[0]), /^Type 11 characters into “Password” on 127\.0\.0\.1/, end.cards[0].action);
    assert.deepEqual(wiki.loggedIn(), [], "nobody is logged in");
    assert.match(end.text, /declined/);
  }),
];

// ---------------------------------------------------------------- pages: create, append, search, heading, delete

const pageTests = [
  wikiTest("create a page: search for its name, follow the wiki's offer to create it, write, Save; data/pages/garden.txt holds the text, by alice", {}, async (env, { wiki, panel }) => {
    usePolicy(env, planPolicy([
      search("garden"),
      follow(":garden", "Create the page the search offers"),
      (list) => {
        const box = editor(list), save = byText(list, "Save", isButton);
        if (!box || !save) return missing("the page editor");
        return ["Write the page and save it", [["type", { index: box.index, text: "Tomatoes need full sun." }], ["click", { index: save.index }]]];
      },
    ], "Created the page “garden”."));
    const end = await runToEnd(panel, "Create a new wiki page named garden that says: Tomatoes need full sun.", noCard);
    completed(env, end);
    assert.equal(wiki.page("garden")?.trim(), "Tomatoes need full sun.");
    assert.deepEqual(wiki.changes("garden").map((c) => [c.type, c.user]), [["C", "alice"]]);
  }),

  wikiTest("append to a page: open it from the start page, edit, add a list item at the end, Save; the old text goes to data/attic", {
    seed: { pages: { start: "====== Welcome ======\n  * [[shopping]]\n  * [[notes]]\n", shopping: "====== Shopping list ======\n  * milk\n  * bread\n" } },
  }, async (env, { wiki, panel }) => {
    usePolicy(env, planPolicy([follow("shopping"), follow("Edit this page"), appendAndSave("\n  * eggs")], "Added eggs to the shopping list."));
    const end = await runToEnd(panel, "Add eggs to the end of the shopping list on the shopping page.", noCard);
    completed(env, end);
    assert.deepEqual(lines(wiki.page("shopping")), ["====== Shopping list ======", "  * milk", "  * bread", "  * eggs"]);
    assert.equal(wiki.attic("shopping")[0]?.text, "====== Shopping list ======\n  * milk\n  * bread\n", "data/attic keeps the old revision");
    assert.equal(wiki.changes("shopping").at(-1).user, "alice");
  }),

  wikiTest("search: find the page that mentions a word through the wiki's full-text search and append to that page only", {
    seed: {
      pages: {
        start: "====== Welcome ======\nSee the [[biology:start|biology]] and [[cooking:start|cooking]] sections.\n",
        "biology:plants": "====== Plants ======\nPlants turn light into sugar with chlorophyll.\n",
        "biology:animals": "====== Animals ======\nAnimals eat plants or other animals.\n",
        "cooking:soup": "====== Soup ======\nA green soup of spinach and peas.\n",
      },
      index: true,
    },
  }, async (env, { wiki, panel }) => {
    const before = ["biology:animals", "cooking:soup"].map(wiki.page);
    usePolicy(env, planPolicy([
      search("chlorophyll"),
      (list) => {
        // A full-text hit links to its page with the words to highlight: `s[]=chlorophyll`.
        const hit = list.find((e) => isLink(e) && /[?&]s\[\]=chlorophyll/.test(e.href ?? ""));
        return hit ? [`Open the result “${hit.text}”`, [["click", { index: hit.index }]]] : missing("a search result");
      },
      follow("Edit this page"),
      appendAndSave("\nReviewed by Alice."),
    ], "Marked the page about chlorophyll as reviewed."));
    const end = await runToEnd(panel, "Find the wiki page that mentions chlorophyll and add the line “Reviewed by Alice.” at its end.", noCard);
    completed(env, end);
    assert.equal(lines(wiki.page("biology:plants")).at(-1), "Reviewed by Alice.");
    assert.match(wiki.page("biology:plants"), /chlorophyll/, "its text is kept");
    assert.deepEqual(["biology:animals", "cooking:soup"].map(wiki.page), before, "no other page changed");
  }),

  wikiTest("heading with the editor's toolbar: Select Headline → Level 2 Headline, then the heading's words over the inserted sample", {
    seed: { pages: { start: "====== Welcome ======\n  * [[notes]]\n", notes: "====== Notes ======\nBuy a bigger pot for the fig tree.\n" } },
  }, async (env, { wiki, panel }) => {
    const tool = (list, name) => list.find((e) => isButton(e) && e.text.replace(/ \[.*\]$/, "") === name);
    usePolicy(env, planPolicy([
      follow("notes"),
      follow("Edit this page"),
      (list) => {
        const box = editor(list), headline = tool(list, "Select Headline");
        if (!box || !headline) return missing("the editor and its toolbar's Select Headline button");
        // A new line at the end first: the toolbar inserts where the caret is.
        return ["Start a new line at the end and open the headline picker", [["type", { index: box.index, text: "\n", clear: false }], ["click", { index: headline.index }]]];
      },
      (list) => {
        const level = tool(list, "Level 2 Headline");
        return level ? ["Insert a level 2 headline", [["click", { index: level.index }]]] : missing("the Level 2 Headline button");
      },
      (list) => {
        const box = editor(list), save = byText(list, "Save", isButton);
        if (!box || !save) return missing("the editor");
        // The toolbar selected the sample words it inserted; typing at the caret replaces them.
        return ["Name the heading and save", [["type", { index: box.index, text: "Summary", clear: false }], ["click", { index: save.index }]]];
      },
    ], "Added the heading “Summary”."));
    const end = await runToEnd(panel, "On the notes page, add a level 2 heading “Summary” at the end, using the editor's toolbar.", noCard);
    completed(env, end);
    const text = lines(wiki.page("notes"));
    assert.deepEqual(text, ["====== Notes ======", "Buy a bigger pot for the fig tree.", "===== Summary ====="], `${wiki.page("notes")}\n${story(env, end)}`);
  }),

  wikiTest("delete a page by saving it empty: the Save asks first; approved, data/pages loses the file and data/attic keeps it", {
    seed: {
      pages: {
        start: "====== Welcome ======\n  * [[old-news]]\n",
        "old-news": `====== Old news ======\n${"The spring fair moved to the town hall; stalls open at nine and close at five. ".repeat(4)}\n`,
      },
    },
  }, async (env, { wiki, panel }) => {
    const old = wiki.page("old-news");
    usePolicy(env, planPolicy([
      follow("old-news"),
      follow("Edit this page"),
      (list) => {
        const box = editor(list), save = byText(list, "Save", isButton);
        if (!box || !save) return missing("the editor");
        return ["Empty the page and save it, which deletes it", [["type", { index: box.index, text: "", clear: true }], ["click", { index: save.index }]]];
      },
    ], "Deleted the page “old-news”."));
    const end = await runToEnd(panel, "Delete the old-news page (a DokuWiki page is deleted by saving it empty).", "approve");
    completed(env, end);
    assert.equal(end.cards.length, 1, `one card, for the Save that empties the page: the page ${wiki.page("old-news") === null ? "was deleted without one" : "is still there"}`);
    assert.match(sentence(end.cards[0]), /^Click “Save”/, end.cards[0].action);
    assert.equal(wiki.page("old-news"), null, "data/pages/old-news.txt is gone");
    assert.equal(wiki.attic("old-news").at(-1)?.text, old, "data/attic keeps the last text");
    const last = wiki.changes("old-news").at(-1);
    assert.deepEqual([last?.type, last?.user], ["D", "alice"], "the changelog says alice deleted it");
  }),
];

// ---------------------------------------------------------------- profile and media

// The wiki takes images, not text files (its mime.conf): a 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const accountTests = [
  wikiTest("change the profile: real name and email, confirmed with the current password (a card); conf/users.auth.php has them", {}, async (env, { wiki, panel }) => {
    usePolicy(env, planPolicy([
      follow("Update Profile"),
      (list) => {
        const name = byText(list, "Real name", isTextField), email = list.find((e) => e.type === "email" && e.text === "E-Mail");
        // Two fields share the name; the profile form's is the one in "User Profile".
        const current = list.find((e) => e.type === "password" && e.text === "Confirm current password" && e.row === "User Profile");
        const save = byText(list, "Save", isButton);
        if (!name || !email || !current || !save) return missing("the profile form");
        return ["Change the name and email, confirm with the password, save", [
          ["type", { index: name.index, text: "Alice Liddell" }],
          ["type", { index: email.index, text: "alice@wonderland.test" }],
          ["type", { index: current.index, text: ALICE.password }],
          ["click", { index: save.index }],
        ]];
      },
    ], "Updated your profile."));
    const end = await runToEnd(panel, `Change my profile: my real name is Alice Liddell and my email is alice@wonderland.test. My password is ${ALICE.password}.`, "approve");
    completed(env, end);
    const { alice } = wiki.users();
    assert.deepEqual([alice.name, alice.email], ["Alice Liddell", "alice@wonderland.test"]);
    assert.deepEqual(end.cards.map((c) => sentence(c).replace(/ on 127\.0\.0\.1.*/s, "")), ["Type 11 characters into “Confirm current password”"], "the current password asks first");
  }),

  wikiTest("upload a file: Media Manager → drafts → Upload; the card takes the user's file; Upload puts it in data/media/drafts", {
    seed: { media: { "drafts:old-logo.png": PNG } },
  }, async (env, { wiki, panel }) => {
    usePolicy(env, planPolicy([
      follow("Media Manager"),
      follow("drafts", "Open the drafts namespace"),
      follow("Upload", "Open the Upload tab"),
      (list) => {
        const input = list.find((e) => e.tag === "input" && e.type === "file");
        return input ? ["Attach the file the user picks", [["upload_file", { index: input.index }]]] : missing("a file input");
      },
      (list) => {
        const up = byText(list, "Upload", isButton);
        return up ? ["Upload it", [["click", { index: up.index }], ["wait", { seconds: 1 }]]] : missing("the Upload button");
      },
    ], "Uploaded the file you chose to drafts."));
    const end = await runToEnd(panel, "Upload a file I choose to the wiki's drafts namespace.", async (card) => {
      if (!card.file) return "deny";
      await panel.setInputFiles(`.confirm-card[data-step="${card.step}"] input[type="file"]`, { name: "garden-plan.png", mimeType: "image/png", buffer: PNG });
      return "approve";
    });
    completed(env, end);
    assert.equal(end.cards.filter((c) => c.file).length, 1, `the upload asked with a file picker (cards: ${JSON.stringify(end.cards.map(sentence))}; ${end.text})`);
    assert.deepEqual(wiki.media("drafts:garden-plan.png"), PNG, "data/media/drafts/garden-plan.png holds the user's file");
    assert.equal(wiki.mediaChanges("drafts:garden-plan.png").at(-1)?.user, "alice");
  }),

  wikiTest("delete a media file: the Delete button asks first, then the page's own “Really delete?” comes as a card; data/media loses the file", {
    seed: { media: { "drafts:old-logo.png": PNG } },
  }, async (env, { wiki, page, panel }) => {
    // The page's dialogs are left to Dusk: Playwright would otherwise dismiss them itself.
    page.on("dialog", () => {});
    usePolicy(env, planPolicy([
      follow("Media Manager"),
      follow("drafts", "Open the drafts namespace"),
      follow("old-logo.png", "Open the file"),
      (list) => {
        const del = byText(list, "Delete", isButton);
        return del ? ["Delete it", [["click", { index: del.index }], ["wait", { seconds: 1 }]]] : missing("the Delete button");
      },
    ], "Deleted old-logo.png."));
    await startRun(panel, "Delete the file old-logo.png from the wiki's drafts namespace.");
    const del = await cardOf(panel, "click");
    assert.ok(del, `the Delete button asks first (the model: ${story(env)})`);
    assert.match(sentence(del), /^Click “Delete”/, del.action);
    await answerCard(panel, "click", "approve");
    const question = await cardOf(panel, "dialog", 10_000);
    assert.ok(question, `after Delete was approved, the page's own “Really delete selected item(s)?” came as no card (the file is still there: ${wiki.media("drafts:old-logo.png") !== null})`);
    assert.match(sentence(question), /Really delete selected item\(s\)\?/, "the page's question, in its words");
    await answerCard(panel, "dialog", "approve");
    const end = await finish(panel, { onCard: noCard });
    completed(env, end);
    assert.equal(wiki.media("drafts:old-logo.png"), null, "data/media/drafts/old-logo.png is gone");
    assert.deepEqual(wiki.mediaAttic("drafts:old-logo.png").at(-1)?.bytes, PNG, "data/media_attic keeps it");
  }),
];

export const tests = [...loginTests, ...pageTests, ...accountTests];
