// A real DokuWiki on loopback for the agent's app tests: Debian's `dokuwiki` package
// (0.0.20220731.a-2, upstream 2022-07-31b "Igor") served by `php -S` from Debian's `php-cli`.
// The code is laid out once per suite run; every wiki gets its own conf, data and session
// folders, so tests share no state. Tests judge tasks from these files, never from what the agent says.
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";

const PACKAGE_CODE = "/usr/share/dokuwiki";
const PACKAGE_CONF = "/etc/dokuwiki";
const DATA_DIRS = ["pages", "attic", "meta", "media", "media_attic", "media_meta", "cache", "index", "locks", "tmp", "log"];

// DOKU_CONF comes from the environment, so one copy of the code serves many wikis.
const PRELOAD = `<?php
if (!defined('DOKU_CONF')) define('DOKU_CONF', rtrim(getenv('DUSK_WIKI_CONF'), '/') . '/');
if (!defined('DOKU_FARM')) define('DOKU_FARM', false);
`;

/** Stops of the wikis still running: a run that exits or is interrupted stops them too. */
const running = new Set();
const stopAll = () => running.forEach((stop) => stop());
process.on("exit", stopAll);
for (const signal of ["SIGINT", "SIGTERM"]) {
  // Once: the signal raised again after the cleanup ends the process as it would have.
  process.once(signal, () => {
    stopAll();
    process.kill(process.pid, signal);
  });
}

let code = null;
/**
 * The package's code in a folder of our own, with a preload that reads DOKU_CONF from the
 * environment. Entry points and inc/init.php are copied (PHP resolves symlinks in __FILE__, and
 * DOKU_INC comes from their place); everything else links to the package.
 */
function codeCopy() {
  if (code) return code;
  if (!existsSync(path.join(PACKAGE_CODE, "doku.php"))) throw new Error("Debian's dokuwiki package is not installed (apt-get install dokuwiki php-cli)");
  const root = mkdtempSync(path.join(tmpdir(), "dusk-dokuwiki-code-"));
  const link = (rel) => symlinkSync(realpathSync(path.join(PACKAGE_CODE, rel)), path.join(root, rel));
  const copy = (rel) => cpSync(path.join(PACKAGE_CODE, rel), path.join(root, rel), { recursive: true, dereference: true });
  for (const f of readdirSync(PACKAGE_CODE)) if (f.endsWith(".php")) copy(f);
  for (const d of ["bin", "lib/exe"]) copy(d);
  for (const d of ["vendor", "lib/images", "lib/scripts", "lib/styles", "lib/plugins", "lib/tpl"]) link(d);
  mkdirSync(path.join(root, "inc"));
  for (const f of readdirSync(path.join(PACKAGE_CODE, "inc"))) if (f !== "init.php" && f !== "preload.php") link(`inc/${f}`);
  copy("inc/init.php");
  writeFileSync(path.join(root, "inc/preload.php"), PRELOAD);
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  return (code = root);
}

const md5 = (s) => createHash("md5").update(s).digest("hex");

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A page id ("ns:name") → its file under a data folder ("ns/name.txt"). */
const pageFile = (id, ext = ".txt") => `${id.replace(/:/g, "/")}${ext}`;

/**
 * Starts a fresh wiki. `users`: { name: { password, name, email, groups } }; `pages`: { id: text };
 * `media`: { "ns:file.txt": Buffer|string }; `index`: build the search index of the seeded pages.
 * Anyone may read; editing, uploading and deleting need a login (ACL @user 16).
 */
export async function startWiki({ users = {}, pages = {}, media = {}, index = false } = {}) {
  const root = codeCopy();
  const site = mkdtempSync(path.join(tmpdir(), "dusk-dokuwiki-site-"));
  const conf = path.join(site, "conf"), data = path.join(site, "data"), sessions = path.join(site, "sessions");
  const ours = new Set(["users.auth.php", "acl.auth.php", "local.php"]);
  cpSync(PACKAGE_CONF, conf, { recursive: true, dereference: true, filter: (src) => !ours.has(path.basename(src)) });
  for (const d of DATA_DIRS) mkdirSync(path.join(data, d), { recursive: true });
  mkdirSync(sessions);
  writeFileSync(path.join(conf, "local.php"), `<?php
$conf['title'] = 'Dusk test wiki';
$conf['savedir'] = '${data}';
$conf['useacl'] = 1;
$conf['authtype'] = 'authplain';
$conf['superuser'] = '@admin';
$conf['disableactions'] = 'register';
$conf['securecookie'] = 0;
$conf['dnslookups'] = 0;
$conf['updatecheck'] = 0;
$conf['usewordblock'] = 0;
$conf['usedraft'] = 0;
$conf['indexdelay'] = 0;
$conf['compress'] = 0;
`);
  writeFileSync(path.join(conf, "acl.auth.php"), "# <?php exit()?>\n*\t@ALL\t1\n*\t@user\t16\n");
  const lines = Object.entries(users).map(([login, u]) => `${login}:${md5(u.password)}:${u.name}:${u.email}:${u.groups ?? "user"}`);
  writeFileSync(path.join(conf, "users.auth.php"), `# <?php exit()?>\n${lines.join("\n")}\n`);
  for (const [id, text] of Object.entries(pages)) {
    const f = path.join(data, "pages", pageFile(id));
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, text);
  }
  const mediaFile = (dir, id) => path.join(data, dir, id.replace(/:/g, "/"));
  for (const [id, body] of Object.entries(media)) {
    const f = mediaFile("media", id);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, body);
  }
  const env = { ...process.env, DUSK_WIKI_CONF: conf, PHP_CLI_SERVER_WORKERS: "3" };
  if (index) execFileSync("php", [path.join(root, "bin/indexer.php"), "-q"], { env, stdio: "ignore" });

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const php = spawn("php", ["-d", `session.save_path=${sessions}`, "-d", "error_reporting=E_ALL&~E_DEPRECATED&~E_NOTICE&~E_WARNING", "-S", `127.0.0.1:${port}`, "-t", root], { env, stdio: ["ignore", "ignore", "pipe"], detached: true });
  // Its workers are its children: the whole group goes at the end, also when the run dies.
  const stop = () => {
    try {
      process.kill(-php.pid, "SIGTERM");
    } catch {
      // gone already
    }
  };
  running.add(stop);
  let log = "";
  php.stderr.on("data", (d) => (log = (log + d).slice(-4000)));
  await waitUp(url, php, () => log);

  // The theme's CSS and scripts are built on first request: start now, while the test sets up.
  const warm = Promise.all(["css", "js"].map((x) => fetch(`${url}/lib/exe/${x}.php?t=dokuwiki`).then((r) => r.arrayBuffer()).catch(() => {})));
  const read = (f) => (existsSync(f) ? readFileSync(f, "utf8") : null);
  return {
    url,
    dir: site,
    /** Settles once the theme's CSS and scripts are built. */
    warm,
    /** The wiki URL of a page, `do` an action (edit, media, profile, login …). */
    pageUrl: (id, action = "") => `${url}/doku.php?id=${encodeURIComponent(id)}${action ? `&do=${action}` : ""}`,
    /** A page's wiki text as stored, or null when it does not exist. */
    page: (id) => read(path.join(data, "pages", pageFile(id))),
    /** The page's changelog: [{ date, ip, type (C create, E edit, D delete …), id, user, summary }]. */
    changes: (id) => parseChanges(read(path.join(data, "meta", pageFile(id, ".changes")))),
    /** Old revisions kept in data/attic, unpacked: [{ rev, text }]. */
    attic: (id) => revisions(path.join(data, "attic", pageFile(id).replace(/\.txt$/, "")), ".txt.gz").map(({ rev, bytes }) => ({ rev, text: gunzipSync(bytes).toString("utf8") })),
    /** A media file's bytes, or null. */
    media: (id) => (existsSync(mediaFile("media", id)) ? readFileSync(mediaFile("media", id)) : null),
    /** Old versions kept in data/media_attic: [{ rev, bytes }]. */
    mediaAttic: (id) => revisions(mediaFile("media_attic", id).replace(/\.[^.]+$/, ""), path.extname(id)),
    mediaChanges: (id) => parseChanges(read(`${mediaFile("media_meta", id)}.changes`)),
    /** conf/users.auth.php as records: { login: { hash, name, email, groups } }. */
    users: () => Object.fromEntries((read(path.join(conf, "users.auth.php")) ?? "").split("\n").filter((l) => l && !l.startsWith("#"))
      .map((l) => l.split(":")).map(([login, hash, name, email, groups]) => [login, { hash, name: decodeURIComponent(name), email, groups }])),
    /** Who the wiki's PHP sessions say is logged in (the `user` of each session's auth record). */
    loggedIn: () => readdirSync(sessions).map((f) => readFileSync(path.join(sessions, f), "utf8").match(/"user";s:\d+:"([^"]*)"/)?.[1]).filter(Boolean),
    log: () => log,
    async close() {
      const exited = php.exitCode !== null ? Promise.resolve() : new Promise((r) => php.once("exit", r));
      stop();
      await exited;
      running.delete(stop);
      rmSync(site, { recursive: true, force: true });
    },
  };
}

async function waitUp(url, php, log) {
  for (let i = 0; i < 100; i++) {
    if (php.exitCode !== null) throw new Error(`php -S exited: ${log()}`);
    try {
      if ((await fetch(`${url}/doku.php`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the wiki did not answer at ${url}: ${log()}`);
}

function parseChanges(text) {
  return (text ?? "").split("\n").filter(Boolean).map((l) => {
    const [date, ip, type, id, user, summary] = l.split("\t");
    return { date: Number(date), ip, type, id, user, summary };
  });
}

/** Files `<base>.<rev><ext>` beside `base`: [{ rev, bytes }], oldest first. */
function revisions(base, ext) {
  const dir = path.dirname(base), name = path.basename(base);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((f) => f.match(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(\\d+)${ext.replace(/\./g, "\\.")}$`)))
    .filter(Boolean).map((m) => ({ rev: Number(m[1]), bytes: readFileSync(path.join(dir, m[0])) })).sort((a, b) => a.rev - b.rev);
}
