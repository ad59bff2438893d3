// What a sandbox must not change although a write path holds it: files that run code later,
// outside the sandbox (shell rc files, git config and hooks, agents' settings, hooks and MCP
// servers, termhive's own profiles), and files that would hand it termhive's serve token.
// Put back read-only over the write paths; an agent's state file it must write gets a private
// copy. bwrap mounts on existing paths only: what must be covered and is missing at launch is
// made first where an empty one changes nothing for the user (MADE_WHEN_HELD in a writable ~, a
// git dir's hooks folder, a repository's .claude folder); docs/limits.md names what is not.
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { relayDir } from "./relay.js";
import { exists, GIT_DIR_PATHS, gitDirParts, gitFileTarget, hooksPathFor } from "./git-dirs.js";
import { copyMasked, lookFor, readSmall } from "./bounded-file.js";
import type { SandboxPolicy } from "./policy.js";

/** Under the user's HOME: read at login, by git, ssh, npm, agents and the session manager. */
export const HOME_PATHS = [
  ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout",
  ".config/fish", ".inputrc", ".gitconfig", ".config/git", ".ssh", ".local/bin", "bin", ".npmrc", ".config/systemd", ".config/autostart",
  ".claude/settings.json", ".claude/settings.local.json", ".claude/hooks", ".claude/commands", ".claude/agents", ".claude/plugins",
  ".codex/config.toml", ".mcp.json",
  // Code run later from the user's own install folders: pip --user's site-packages (a .pth file
  // runs at every python start), an npm prefix's packages, pipx's and uv's tools, completions
  // bash sources, user units and desktop entries.
  ".local/lib", ".local/share/pipx", ".local/share/uv/tools", ".local/share/bash-completion", ".local/share/systemd", ".local/share/applications",
];

/**
 * Folders of code a write path may hold that are made (empty, 0700) when missing so that they
 * can be covered: left missing, the pane would make them (a ~/.local/bin the next login puts on
 * PATH, a site-packages python reads at start, an agent's hooks and settings its next run
 * outside obeys). Settings files are made holding nothing ("{}", an empty TOML).
 */
export const MADE_WHEN_HELD = [".local/bin", ".local/lib", ".claude/hooks", ".claude/commands", ".claude/agents", ".claude/plugins"];
export const MADE_FILES_WHEN_HELD: Record<string, string> = { ".claude/settings.json": "{}\n", ".codex/config.toml": "" };

/** Agent settings files under HOME the agent itself rewrites: a private writable copy each (shieldFor). */
const AGENT_SETTINGS = [".claude/settings.json", ".claude/settings.local.json", ".codex/config.toml"];

/** Folders of commands: what their links point to runs as much as the links do. */
const BIN_DIRS = [".local/bin", "bin"];

/**
 * In every write path and each folder directly in it (a project, or a folder of projects). A
 * project's .claude is read-only whole: each of its settings files, hooks, commands, agents and
 * skills runs code in the next agent started there, and one missing at launch could be made.
 */
export const PROJECT_PATHS = [".git", ".claude", ".mcp.json", ".vscode", ".idea", ".envrc"];
export { GIT_DIR_PATHS };

/**
 * termhive's own install, node, and the programs it runs outside (tmux, bwrap, pasta, /bin/sh,
 * given as `programs`): the code every unsandboxed pane's `termhive`, the agents' hooks, the next
 * server and every later sandbox run, and the rc files every new pane's shell sources. A write path
 * holding them (a folder above the install, a "worktree" sandbox opened in termhive's own
 * clone) gets them read-only; one inside them is refused (launch.ts). Its sources (src/*.ts)
 * run nothing and stay writable; package.json and .npmrc (npm reads both for `npm start`) do
 * not. Each as given and as its real path (node_modules may be a link).
 */
export function ownCode(root: string, nodeBinary: string, programs: (string | null)[] = []): string[] {
  const found = new Set<string>();
  for (const p of [...["dist", "src/shell", "proto", "node_modules", "package.json", ".npmrc"].map((part) => join(root, part)), nodeBinary, ...programs]) {
    if (!p || !exists(p)) continue;
    found.add(p);
    try {
      // The link itself where its folder really is (/bin/sh is /usr/bin/sh on a merged /usr).
      found.add(join(realpathSync(dirname(p)), basename(p)));
      found.add(realpathSync(p));
    } catch {
      // a dangling link loads nothing
    }
  }
  return [...found];
}

export interface Shield {
  /** Bound read-only over themselves after the write paths. */
  readOnly: string[];
  /** A private copy bound over the original (writable: the program keeps its state there). */
  copies: { source: string; target: string; writable: boolean }[];
}

export interface ShieldContext {
  home: string;
  /** The HOME the pane's program was given (env.HOME), when not `home`: its ~/.claude.json is shielded too. */
  programHome?: string;
  cwd: string;
  termhiveHome: string;
  sessionId: string;
  /** termhive's serve tokens: masked in every copy, and any file the pane reads that holds one is copied masked. */
  tokens: string[];
  /** Paths the caller's own policy named (an explicit policy's write list): theirs to give. */
  named: string[];
  /** termhive's own code (ownCode): read-only wherever a write path holds it, named or not. */
  ownCode?: string[];
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith("/") ? dir : dir + "/");

function children(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.isSymbolicLink()).map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * The candidates under one folder: the dangerous parts of every git dir its .git reaches
 * (git-dirs.ts), a .git file (a submodule's, a linked worktree's) whole and the parts of the git
 * dir it names. `make` says whether a missing path may be made to be covered; a repository's
 * missing .claude folder is made (empty: git shows no empty folder) so no agent settings can be
 * planted there.
 */
function projectCandidates(dir: string, make: (path: string) => boolean, home: string): string[] {
  // A write path may be a file (~/.claude.json): nothing is under it.
  if (!isDirectory(dir)) return [];
  const dotGit = join(dir, ".git");
  const claude = join(dir, ".claude");
  if (exists(dotGit) && !exists(claude) && make(claude)) mkdirSync(claude, { mode: 0o755 });
  return PROJECT_PATHS.flatMap((p) => {
    const path = join(dir, p);
    if (p !== ".git") return [path];
    const gitDir = isDirectory(path) ? path : gitFileTarget(path);
    if (!gitDir || !isDirectory(gitDir)) return [path];
    return [...(gitDir === path ? [] : [path]), ...gitDirParts(gitDir, make), ...hooksFolder(dir, gitDir, home, make)];
  });
}

/**
 * The folder core.hooksPath names (git-dirs.ts): git runs its hooks instead of the git dir's,
 * so it is covered like hooks/. A missing one inside a write path is made empty (the pane would
 * make it and plant a hook; git shows no empty folder).
 */
function hooksFolder(top: string, gitDir: string, home: string, make: (path: string) => boolean): string[] {
  const hooks = hooksPathFor(top, gitDir, home);
  if (!hooks) return [];
  if (!exists(hooks) && make(hooks)) mkdirSync(hooks, { recursive: true, mode: 0o755 });
  return [hooks];
}

/** The real files the links in a folder point to (pipx's venvs, an npm prefix's packages). */
function linkTargets(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isSymbolicLink()).flatMap((e) => {
    try {
      return [realpathSync(join(dir, e.name))];
    } catch {
      return []; // a dangling link runs nothing
    }
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What the pane sees in place of a token in a file it reads. */
const TOKEN_MASK = "termhive-token-hidden-in-sandbox";

export async function shieldFor(policy: SandboxPolicy, ctx: ShieldContext): Promise<Shield> {
  const write = policy.write;
  const named = new Set(ctx.named);
  const make = (p: string) => !named.has(p) && write.some((w) => inside(p, w) && p !== w);
  for (const p of MADE_WHEN_HELD.map((m) => join(ctx.home, m))) {
    if (!exists(p) && make(p)) mkdirSync(p, { recursive: true, mode: 0o700 });
  }
  for (const [m, text] of Object.entries(MADE_FILES_WHEN_HELD)) {
    const p = join(ctx.home, m);
    if (exists(p) || !make(p) || !isDirectory(dirname(p))) continue;
    try {
      writeFileSync(p, text, { flag: "wx", mode: 0o600 });
    } catch {
      // made meanwhile: covered as it is
    }
  }
  const candidates = new Set<string>(HOME_PATHS.map((p) => join(ctx.home, p)));
  for (const dir of BIN_DIRS) for (const target of linkTargets(join(ctx.home, dir))) candidates.add(target);
  for (const w of write) for (const dir of [w, ...children(w)]) for (const c of projectCandidates(dir, make, ctx.home)) candidates.add(c);
  const readOnly = [...candidates].filter((c) => !named.has(c) && write.some((w) => inside(c, w) && c !== w) && exists(c));
  for (const c of ctx.ownCode ?? []) if (!readOnly.includes(c) && write.some((w) => inside(c, w))) readOnly.push(c);

  const copies: Shield["copies"] = [];
  const copyDir = join(ctx.termhiveHome, "sandbox", ctx.sessionId);
  const nextSource = (target: string) => {
    mkdirSync(copyDir, { recursive: true, mode: 0o700 });
    return join(copyDir, `${copies.length}-${target.split("/").pop()}`);
  };
  /** An empty file in the pane in place of one too large to read (REGISTRATION_MAX_BYTES). */
  const placeholder = (target: string, writable: boolean) => {
    const source = nextSource(target);
    writeFileSync(source, "", { mode: 0o600 });
    copies.push({ source, target, writable });
  };
  const copy = async (target: string, writable: boolean): Promise<boolean> => {
    const source = nextSource(target);
    const done = await copyMasked(target, source, ctx.tokens, TOKEN_MASK);
    if (done === "copied") copies.push({ source, target, writable });
    else if (done === "oversize") placeholder(target, writable);
    return done !== "missing";
  };
  // An agent writes its own settings as it runs (Claude Code moves an accepted bypass mode from
  // ~/.claude.json into settings.json at start; read-only, the acceptance is lost and it asks
  // again): where the pane may write them, it writes a copy of its own, started from the user's
  // file (made holding nothing above when missing), which the next agent outside never reads.
  for (const file of AGENT_SETTINGS.map((m) => join(ctx.home, m))) {
    const at = readOnly.indexOf(file);
    if (at < 0) continue;
    readOnly.splice(at, 1);
    await copy(file, true);
  }
  // Claude Code rewrites ~/.claude.json as it runs (and keeps its MCP servers there): where the
  // pane may write it, it writes a copy of its own; where it may not, it reads a masked copy.
  const claudeJson = join(ctx.home, ".claude.json");
  for (const file of new Set([claudeJson, join(ctx.programHome ?? ctx.home, ".claude.json")])) {
    if (!named.has(file) && write.some((w) => inside(file, w))) await copy(file, true);
  }
  // Files an MCP client reads its servers from, wherever the pane reads them: the cwd's folders up to /.
  const readable = [claudeJson, join(ctx.home, ".mcp.json"), join(ctx.home, ".codex/config.toml")];
  for (let dir = ctx.cwd; ; dir = dirname(dir)) {
    readable.push(join(dir, ".mcp.json"));
    if (dir === dirname(dir)) break;
  }
  // No token to hide (no serve token here): nothing to read.
  if (ctx.tokens.length === 0) return { readOnly, copies };
  for (const file of new Set(readable)) {
    if (copies.some((c) => c.target === file)) continue;
    const look = await lookFor(file, ctx.tokens);
    if (look === "missing" || look === "clean") continue;
    // One too large to look through may hold a token as well: the pane gets an empty one.
    if (look === "oversize") placeholder(file, false);
    else if (!(await copy(file, false))) continue;
    const at = readOnly.indexOf(file);
    if (at >= 0) readOnly.splice(at, 1);
  }
  return { readOnly, copies };
}

const TOKEN_FILE_MAX_BYTES = 1024;

/** termhive's serve tokens this pane must not see: its own home's, and the user's default home's. */
export async function serveTokens(homes: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const home of homes) {
    // A token is 43 characters (auth/token.ts); a file much longer is not one.
    const t = (await readSmall(join(home, "token"), TOKEN_FILE_MAX_BYTES))?.trim();
    if (t && t.length >= 16) found.add(t);
  }
  return [...found];
}

/** Copies of panes that are gone (their relay folder was removed at their end). */
export function pruneCopies(termhiveHome: string): void {
  const root = join(termhiveHome, "sandbox");
  if (!existsSync(root)) return;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory() && !existsSync(relayDir(termhiveHome, entry.name))) rmSync(join(root, entry.name), { recursive: true, force: true });
  }
}
