// Status detection on realistic screens of Claude Code, Codex, Aider and a shell; custom profiles.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { HiveError, ProfileRegistry, detectStatus, isReady, loadProfiles, parseProfilesConfig } from "../../../src/hive/index.js";

const profiles = new ProfileRegistry();
const screen = (text: string, rows = 30) => {
  const lines = text.replace(/^\n/, "").split("\n");
  while (lines.length < rows) lines.push(""); // a real screen has blank rows below the content
  return lines;
};
// Status and detail; what decided it (`by`) is checked where it matters (hooks.test.ts: precedence).
const detect = (profile: string, text: string, quietMs = 2000, extra: { ready?: boolean } = {}) => {
  const { status, detail } = detectStatus(profiles.get(profile), { screenLines: screen(text), quietMs, ...extra });
  return { status, detail };
};

const CLAUDE_BOX = `
╭──────────────────────────────────────────────────────────────╮
│ >                                                            │
╰──────────────────────────────────────────────────────────────╯
  ? for shortcuts`;

test("claude: working while the spinner says 'esc to interrupt', even with the input box below", () => {
  const s = `
> refactor the auth module

● I'll start by reading the auth module.

● Read(src/auth.ts)
  ⎿  Read 120 lines (ctrl+r to expand)

✻ Pondering… (14s · ↑ 1.2k tokens · esc to interrupt)
${CLAUDE_BOX}`;
  assert.deepEqual(detect("claude", s, 50), { status: "working", detail: "✻ Pondering… (14s · ↑ 1.2k tokens · esc to interrupt)" });
  assert.equal(detect("claude", s, 60_000).status, "working", "a long tool call is still working");
});

test("claude: a permission dialog is waiting_for_input", () => {
  const s = `
● Bash(rm -rf build)
  ⎿  Running…

╭──────────────────────────────────────────────────────────────╮
│ Bash command                                                 │
│                                                              │
│   rm -rf build                                               │
│   Remove the build directory                                 │
│                                                              │
│ Do you want to proceed?                                      │
│ ❯ 1. Yes                                                     │
│   2. Yes, and don't ask again for rm commands in this project│
│   3. No, and tell Claude what to do differently (esc)        │
╰──────────────────────────────────────────────────────────────╯`;
  assert.deepEqual(detect("claude", s), {
    status: "waiting_for_input",
    detail: "permission prompt: Do you want to proceed? 1. Yes / 2. Yes, and don't ask again for rm commands in this project / 3. No, and tell Claude what to do differently (esc)",
  });
  const edit = `
 Do you want to make this edit to auth.ts?
   1. Yes
 ❯ 2. Yes, allow all edits during this session (shift+tab)
   3. No, and tell Claude what to do differently (esc)`;
  assert.equal(detect("claude", edit).status, "waiting_for_input");
  const trust = `
 Do you trust the files in this folder?

 /home/me/project

 ❯ 1. Yes, proceed
   2. No, exit`;
  assert.deepEqual(detect("claude", trust, 100, { ready: false }), { status: "waiting_for_input", detail: "trust prompt: Do you trust the files in this folder? 1. Yes, proceed / 2. No, exit" });
});

test("claude: idle at the input box once quiet; a question in the model's own answer is not a dialog", () => {
  const done = `
● Done. The auth module now uses the new token store. Do you want to proceed with the migration next?
${CLAUDE_BOX}`;
  assert.deepEqual(detect("claude", done, 2000), { status: "idle", detail: "input prompt" });
  assert.deepEqual(detect("claude", done, 100), { status: "working", detail: "output is changing" }, "not idle while output still moves");
  const interrupted = `
● Read(src/auth.ts)
  ⎿  Interrupted · What should Claude do instead?
${CLAUDE_BOX}`;
  assert.deepEqual(detect("claude", interrupted), { status: "idle", detail: "interrupted" });
});

test("claude: an API error above the input box is error; a fresh start is starting", () => {
  const s = `
> write tests
  ⎿  API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
${CLAUDE_BOX}`;
  const r = detect("claude", s);
  assert.equal(r.status, "error");
  assert.match(r.detail, /API Error: 529/);
  assert.deepEqual(detect("claude", "\n  Loading…", 3000, { ready: false }), { status: "starting", detail: "waiting for the program to be ready" });
  assert.equal(isReady(profiles.get("claude"), { screenLines: screen("\n  Loading…"), quietMs: 3000 }), false);
  assert.equal(isReady(profiles.get("claude"), { screenLines: screen(CLAUDE_BOX), quietMs: 0 }), true);
});

test("codex: working, approval prompt, idle composer", () => {
  const working = `
>_ OpenAI Codex (v0.46.0)

› Summarize recent commits

• Working (12s • esc to interrupt)

›

  ⏎ send   ⌃J newline   ⌃T transcript   ⌃C quit`;
  assert.equal(detect("codex", working, 20).status, "working");
  const approval = `
  Would you like to run the following command?

  Reason: needs network access

  $ curl -I https://example.com

› 1. Yes, proceed (y)
  2. Yes, and don't ask again for this command (a)
  3. No, and tell Codex what to do differently (esc)

  Press enter to confirm or esc to cancel`;
  assert.deepEqual(detect("codex", approval), {
    status: "waiting_for_input",
    detail: "approval prompt: Would you like to run the following command? 1. Yes, proceed (y) / 2. Yes, and don't ask again for this command (a) / 3. No, and tell Codex what to do differently (esc)",
  });
  const idle = `
• Here is the summary: three commits fixed the parser.

› Ask Codex to do anything

  100% context left · ? for shortcuts`;
  assert.deepEqual(detect("codex", idle), { status: "idle", detail: "input prompt" });
  assert.equal(isReady(profiles.get("codex"), { screenLines: screen(idle), quietMs: 0 }), true);
});

test("codex 0.169 starting up: the composer is drawn but the header says loading; a text submitted meanwhile waits for startup — not idle", () => {
  // As Codex 0.169.0 drew them on a loaded machine (tmux capture-pane).
  const loading = `
  >_ OpenAI Codex (v0.169.0)
     loading

› Ask Codex to do anything

  ? for shortcuts`;
  assert.deepEqual(detect("codex", loading), { status: "starting", detail: "starting up" });
  const waiting = `
  >_ OpenAI Codex (v0.169.0)
     /tmp/proj

› alpha task sleep 3

  gpt-5.1-codex default · /tmp/proj
  Waiting for startup  · esc cancel`;
  assert.deepEqual(detect("codex", waiting), { status: "starting", detail: "starting up (a submitted text waits for it)" });
  // Once up, the header names the folder and the composer is idle.
  const up = `
  >_ OpenAI Codex (v0.169.0)
     /tmp/proj

› Ask Codex to do anything

  gpt-5.1-codex default · /tmp/proj`;
  assert.deepEqual(detect("codex", up), { status: "idle", detail: "input prompt" });
});

test("aider: idle prompt, confirmation question, model error", () => {
  const idle = `
Aider v0.86.1
Main model: anthropic/claude-sonnet-4 with diff edit format
Git repo: .git with 42 files
Repo-map: using 4096 tokens, auto refresh
──────────────────────────────────────────────────
diff> `;
  assert.deepEqual(detect("aider", idle, 3000), { status: "idle", detail: "input prompt" });
  const confirm = `
Tokens: 13k sent, 830 received. Cost: $0.04 message, $0.04 session.
src/utils/mongo.ts
Create new file? (Y)es/(N)o [Yes]: `;
  assert.deepEqual(detect("aider", confirm, 3000), { status: "waiting_for_input", detail: "confirmation" });
  const err = `
> fix the tests
litellm.RateLimitError: AnthropicException - rate limit exceeded
The API provider has rate limited you. Try again later or check your quotas.
> `;
  assert.equal(detect("aider", err, 3000).status, "error");
  const streaming = `
> fix the tests
I'll update the test to await the promise.`;
  assert.equal(detect("aider", streaming, 50).status, "working");
});

test("shell: prompt is idle, a silent command is working, questions wait for input, exit is exited", () => {
  assert.deepEqual(detect("shell", "me@box:~/proj$ ls\nREADME.md src\nme@box:~/proj$ "), { status: "idle", detail: "shell prompt" });
  const silent = detect("shell", "me@box:~/proj$ sleep 30", 5000);
  assert.equal(silent.status, "working");
  assert.match(silent.detail, /quiet for 5s/);
  assert.equal(detect("shell", "me@box:~$ ssh new-host\nAre you sure you want to continue connecting (yes/no/[fingerprint])? ").status, "waiting_for_input");
  assert.equal(detect("shell", "me@box:~$ sudo apt update\n[sudo] password for me: ").status, "waiting_for_input");
  assert.equal(detect("shell", "me@box:~$ rm -i x\nProceed? [y/N] ").status, "waiting_for_input");
  assert.deepEqual(detectStatus(profiles.get("shell"), { screenLines: [], quietMs: 0, exited: true, exitCode: 2 }), { status: "exited", detail: "exit code 2", by: "exit" });
  assert.equal(detectStatus(profiles.get("claude"), { screenLines: screen(CLAUDE_BOX), quietMs: 0, exited: true }).status, "exited");
});

test("custom profiles: extend, override a built-in, validation errors name the file, profile and rule", () => {
  const dir = mkdtempSync(join(tmpdir(), "termhive-profiles-"));
  try {
    const path = join(dir, "profiles.json");
    writeFileSync(path, JSON.stringify({
      profiles: {
        bot: { extends: "shell", command: "bot --tui", ready: "^BOT READY", rules: [{ status: "working", pattern: "thinking\\.\\.\\.", flags: "i", lines: 3 }] },
        claude: { extends: "claude", rules: [{ status: "error", pattern: "quota exhausted", lines: 5 }] },
      },
    }));
    const reg = loadProfiles({ TERMHIVE_PROFILES: path });
    assert.deepEqual(reg.names(), ["aider", "bot", "claude", "codex", "shell"]);
    const bot = reg.get("bot");
    assert.equal(bot.command, "bot --tui");
    assert.equal(bot.quietStatus, "working", "inherited from shell");
    assert.equal(detectStatus(bot, { screenLines: ["Thinking..."], quietMs: 5000 }).status, "working");
    assert.equal(detectStatus(bot, { screenLines: ["bot$ "], quietMs: 5000 }).status, "idle", "parent's rules follow its own");
    assert.equal(isReady(bot, { screenLines: ["BOT READY v1"], quietMs: 0 }), true);
    const claude = reg.get("claude");
    assert.equal(claude.builtin, false);
    assert.equal(detectStatus(claude, { screenLines: screen("quota exhausted\n" + CLAUDE_BOX), quietMs: 5000 }).status, "error");
    assert.equal(detectStatus(claude, { screenLines: screen("✻ Working… (esc to interrupt)" + CLAUDE_BOX), quietMs: 5000 }).status, "working", "built-in rules kept");

    const bad = (json: unknown) => {
      writeFileSync(path, typeof json === "string" ? json : JSON.stringify(json));
      return () => loadProfiles({ TERMHIVE_PROFILES: path });
    };
    assert.throws(bad({ profiles: { x: { rules: [{ status: "idle", pattern: "([" }] } } }), (err: unknown) =>
      err instanceof HiveError && err.message.includes(path) && /profile 'x' rule 1: invalid pattern \/\(\[\//.test(err.message));
    assert.throws(bad({ profiles: { x: { rules: [{ status: "sleeping", pattern: "z" }] } } }), /invalid profiles file: profiles\.x\.rules\.0\.status/);
    assert.throws(bad({ profiles: { x: { extends: "nope" } } }), /unknown profile 'nope'/);
    assert.throws(bad({ profiles: { x: { extends: "y" }, y: { extends: "x" } } }), /extends' cycle: x → y → x/);
    assert.throws(bad({ profiles: { x: { colour: "red" } } }), /invalid profiles file/);
    assert.throws(bad("{ not json"), /not valid JSON/);
    assert.throws(() => loadProfiles({ TERMHIVE_PROFILES: join(dir, "missing.json") }), /cannot read the file/);
    assert.throws(() => parseProfilesConfig({ profiles: { "bad name": {} } }, "cfg"), /cfg: invalid profiles file/);
    assert.deepEqual(loadProfiles({}).names(), ["aider", "claude", "codex", "shell"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Issue 23 §2: no dialog is ever idle. Screens as the real programs draw them (captured from
// Codex 0.169.0 and Claude Code 2.1.332 against the test stand-ins).
test("codex 0.169: the start-up model menu is waiting_for_input with its question and choices, not the idle composer", () => {
  const meet = `
  Meet GPT-6 Sol

  Our latest Sol is more intelligent and more efficient so your usage limits go further. This model is a great daily
  driver for complex tasks, especially coding.

› 1. Try new model
  2. Use existing model

  enter/esc confirm · ^c quit`;
  assert.deepEqual(detect("codex", meet), {
    status: "waiting_for_input",
    detail: "choice prompt: driver for complex tasks, especially coding. 1. Try new model / 2. Use existing model",
  });
});

test("claude 2.1.332: the start-up auto-mode question and the API key question are waiting_for_input, not the ❯ input prompt", () => {
  const automode = `
 ▐▛███▛█   Claude Code v2.1.332
────────────────────────────────────────────────────────────
  Make auto mode your default permission mode?
  Auto mode lets Claude handle permission prompts automatically.
  ❯ Yes, set auto mode as my default permission mode
    No, keep manual mode`;
  assert.deepEqual(detect("claude", automode), {
    status: "waiting_for_input",
    detail: "start-up choice: Make auto mode your default permission mode? Yes, set auto mode as my default permission mode / No, keep manual mode",
  });
  const key = `
  Detected a custom API key in your environment
  ANTHROPIC_API_KEY: sk-ant-...andin-key-0123456789
  Do you want to use this API key?
    Yes
  ❯ No (recommended)
  Enter to confirm · Esc to cancel`;
  assert.deepEqual(detect("claude", key), { status: "waiting_for_input", detail: "API key prompt: Do you want to use this API key? Yes / No (recommended)" });
  const permission = `
● Bash(touch made-by-claude)
  ⎿  Waiting…
────────────────────────────────────────────────────────────
 Bash command
 touch made-by-claude
 Do you want to proceed?
 ❯ 1. Yes
   2. Yes, and always allow access to proj from this project
   3. Yes, and switch to auto mode · auto mode handles these prompts for you
   4. No
 Esc to cancel · Tab to amend`;
  assert.equal(detect("claude", permission).status, "waiting_for_input");
  assert.match(detect("claude", permission).detail, /^permission prompt: Do you want to proceed\? 1\. Yes \/ .* \/ 4\. No$/);
});

// Issue 32 §1: 2.1.332's read-outside dialog (auto mode, the default), as drawn at 120 columns
// when the model's Read names a file outside the working directories (tmux capture-pane).
test("claude 2.1.332: the read-outside dialog is waiting_for_input with its question and its four choices", () => {
  const screen = `
❯ please read: /tmp/dlg/outside/note.txt

● Reading 1 file… (ctrl+o to expand)
  ⎿  /tmp/dlg/outside/note.txt

────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
 Read outside the working directories
╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
 Read(/tmp/dlg/outside/note.txt)
╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
 Auto mode and the sandbox read outside the working directories without asking. Yes or No answers for this read; the
 rest is for later reads. Block: the file tools refuse reads outside the working directories in every project. The
 sandbox doesn't enforce it on this machine (off, filesystem rules relaxed, managed read-path lock on, or working
 directory name has glob characters). Auto mode asks before each shell command it can't check. To undo, remove
 permissions.blockReadsOutsideWorkingDirectories from your user settings; file tools follow next session, sandboxed
 commands at once.

 Allow this read outside the working directories?
 ❯ 1. Yes, and keep allowing any reads outside the working directories
   2. No, and block reads outside the working directories from now on
   3. No, and ask again next time
   4. Yes, but ask again next time

 Esc to cancel · Tab to amend`;
  const seen = detect("claude", screen);
  assert.equal(seen.status, "waiting_for_input");
  assert.match(seen.detail, /^read-outside prompt: Allow this read outside the working directories\? 1\. Yes, and keep allowing any reads outside the working directories \/ 2\. No, and block/);
  // The question's words alone are not the dialog: a model may write them in its answer.
  assert.equal(detect("claude", "● Allow this read outside the working directories? I would say yes.\n\n────\n❯ \n────").status, "idle");
});

test("claude 2.1.332: the start-up trust dialog (no question mark, the cursor on \"No, exit\") is a trust prompt", () => {
  const screen = `
────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
 Accessing workspace:

 /tmp/dlg/proj3

 Quick safety check: Is this a project you created or one you trust? (Like your own code, a well-known open source
 project, or work from your team). If not, take a moment to review what's in this folder first.

 Claude Code'll be able to read, edit, and execute files here.

 Security guide

 ❯ No, exit
   Yes, I trust this folder

 Enter to confirm · Esc to cancel`;
  const seen = detect("claude", screen);
  assert.equal(seen.status, "waiting_for_input");
  assert.equal(seen.detail, "trust prompt: Quick safety check: Is this a project you created or one you trust? No, exit / Yes, I trust this folder");
});

test("a question that scrolled above a newer input box was answered: the box is idle", () => {
  const claude = `
 Do you want to proceed?
 ❯ 1. Yes
   2. No
● ran the tests
────────────────────────────────────────────────────────────
❯ 
────────────────────────────────────────────────────────────
  ⏸ manual mode on · ? for shortcuts`;
  assert.deepEqual(detect("claude", claude), { status: "idle", detail: "input prompt" });
  const codex = `
› 1. Try new model
  2. Use existing model
• Model kept: gpt-5.6-sol

› Ask Codex to do anything

  gpt-5.6-sol default · ~/proj`;
  assert.deepEqual(detect("codex", codex), { status: "idle", detail: "input prompt" });
});
