// Codex's own hooks for one agent, on its command line, trusted the way Codex records trust.
//
// Codex 0.169 and 0.171 run hooks (`[features] hooks`, on by default) only when they are
// trusted: a `[hooks.state."<key>"] trusted_hash = "sha256:…"` record per hook, in a config layer
// the user controls. Codex writes that record itself when a person trusts a hook on its "Hooks
// need review" screen. A hook given with `-c` belongs to the session-flags layer
// (`/<session-flags>/config.toml`), and so may its trust record: both go on the command line,
// nothing is written to the user's config.toml, and the user's own hooks (their layer, their
// trust records) are left as they are and still run. `--dangerously-bypass-hook-trust` is not
// used: it would arm every untrusted hook the user has as well.
//
// The record's key is `<source>:<event label>:<group index>:<handler index>`; its hash is the
// sha256 of the hook's normalized identity as compact JSON with sorted keys:
// {"event_name": <label>, "matcher"?: …, "hooks": [{"type": "command", "command": …,
// "timeout": <seconds>, "async": false}]} (codex-rs hooks/src/engine/discovery.rs,
// config/src/fingerprint.rs). Checked against the real binaries: `codex app-server`'s
// `hooks/list` reports these hooks "trusted" with this hash (test/e2e/real-codex-hooks.test.ts),
// and the hash Codex 0.171 wrote for a hook a person trusted on its review screen is the one
// computed here (test/unit/hive/codex-hooks.test.ts).
import { createHash } from "node:crypto";

/** The hook events Codex 0.169 and 0.171 read from config; another name would be refused in its config. */
export const CODEX_HOOK_EVENTS = ["PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit", "Stop"] as const;

/** Events whose matcher Codex ignores (and leaves out of the hash): a matcher there would not mean what it says. */
export const CODEX_EVENTS_WITHOUT_MATCHER: readonly string[] = ["UserPromptSubmit", "Stop"];

/** The source Codex names for hooks given with `-c`: their trust records' keys start with it. */
export const CODEX_SESSION_FLAGS_SOURCE = "/<session-flags>/config.toml";

export interface CodexHook {
  event: string;
  matcher?: string;
  command: string;
  timeoutS: number;
}

/** "UserPromptSubmit" → "user_prompt_submit": the event's label in trust keys and hashes. */
export function codexEventLabel(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

const canonical = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(canonical) : v !== null && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;

const handlerOf = (h: CodexHook) => ({ type: "command", command: h.command, timeout: h.timeoutS });

/** The `trusted_hash` Codex expects for `hook` (see the top of this file). */
export function codexHookHash(hook: CodexHook): string {
  const identity = {
    event_name: codexEventLabel(hook.event),
    ...(hook.matcher !== undefined && !CODEX_EVENTS_WITHOUT_MATCHER.includes(hook.event) ? { matcher: hook.matcher } : {}),
    hooks: [{ ...handlerOf(hook), async: false }],
  };
  return `sha256:${createHash("sha256").update(JSON.stringify(canonical(identity))).digest("hex")}`;
}

/** A TOML inline value: JSON's string escapes are valid in TOML basic strings. */
function toml(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(toml).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}=${toml(x)}`).join(",")}}`;
  return JSON.stringify(v);
}

/**
 * The `-c` arguments that give Codex `hooks` and their trust records: one matcher group per
 * hook, in order (`-c hooks.<Event>=[…]`), then `-c hooks.state={…}`.
 */
export function codexHookArgs(hooks: readonly CodexHook[]): string[] {
  const groups: Record<string, { matcher?: string; hooks: ReturnType<typeof handlerOf>[] }[]> = {};
  const state: Record<string, { trusted_hash: string }> = {};
  for (const h of hooks) {
    const list = (groups[h.event] ??= []);
    state[`${CODEX_SESSION_FLAGS_SOURCE}:${codexEventLabel(h.event)}:${list.length}:0`] = { trusted_hash: codexHookHash(h) };
    list.push({ ...(h.matcher !== undefined ? { matcher: h.matcher } : {}), hooks: [handlerOf(h)] });
  }
  return [...Object.entries(groups).flatMap(([event, g]) => ["-c", `hooks.${event}=${toml(g)}`]), "-c", `hooks.state=${toml(state)}`];
}
