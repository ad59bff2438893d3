// Status from the screen: given a profile and what the pane shows right now, say whether the
// agent is starting, working, idle, waiting for input, errored or exited. Pure and cheap (a
// few regexes over the bottom of one screen), so the service can run it on every screen change.
//
// Order of decision:
//   1. exited (the pane's program ended) — nothing on screen overrides that;
//   2. not yet ready (caller says the ready pattern was never seen) and no rule matches → starting;
//   3. the profile's rules, first match wins (a rule with minQuietMs is skipped while output
//      is still changing);
//   4. no rule: output changed within quietIdleMs → working; else the profile's quietStatus.
import type { AgentProfile, DetectableStatus } from "./profiles.js";

export interface ScreenState {
  /** The visible screen, top to bottom, one string per row (no escapes). */
  screenLines: readonly string[];
  /** Milliseconds since the pane last produced output. */
  quietMs: number;
  exited?: boolean;
  exitCode?: number | null;
  /** Whether the profile's ready condition has been seen since start (default true). */
  ready?: boolean;
}

export interface DetectedStatus {
  status: DetectableStatus | "exited";
  detail: string;
  /** What decided it: a profile rule (a known string on screen), or only quiet time / readiness. */
  by: "rule" | "quiet" | "exit";
  /** The matching rule is marked overridesHooks (set only then). */
  overridesHooks?: true;
}

const MAX_DETAIL = 120;

/** Bottom `n` lines after dropping trailing blank rows (a screen's unused rows are blank); n = 0: all. */
function bottom(lines: readonly string[], n: number): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === "") end--;
  const kept = lines.slice(0, end).map((l) => l.replace(/\s+$/, ""));
  return n > 0 ? kept.filter((l) => l.trim() !== "").slice(-n) : kept;
}

function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index - 1) + 1;
  const end = text.indexOf("\n", index);
  const line = text.slice(start, end === -1 ? undefined : end).trim();
  return line.length > MAX_DETAIL ? line.slice(0, MAX_DETAIL - 1) + "…" : line;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

export function detectStatus(profile: AgentProfile, screen: ScreenState): DetectedStatus {
  if (screen.exited) {
    return { status: "exited", detail: screen.exitCode != null ? `exit code ${screen.exitCode}` : "program ended", by: "exit" };
  }
  for (const rule of profile.rules) {
    if (screen.quietMs < rule.minQuietMs) continue;
    const text = bottom(screen.screenLines, rule.lines).join("\n");
    const m = rule.pattern.exec(text);
    if (m) return { status: rule.status, detail: rule.detail ?? lineAt(text, m.index), by: "rule", ...(rule.overridesHooks ? { overridesHooks: true as const } : {}) };
  }
  if (screen.ready === false) return { status: "starting", detail: "waiting for the program to be ready", by: "quiet" };
  if (screen.quietMs < profile.quietIdleMs) return { status: "working", detail: "output is changing", by: "quiet" };
  return { status: profile.quietStatus, detail: `quiet for ${seconds(screen.quietMs)}, no known prompt on screen`, by: "quiet" };
}

/**
 * Whether a freshly started agent accepts input: its ready pattern is on screen, or (no
 * pattern) its output has been quiet for quietIdleMs.
 */
export function isReady(profile: AgentProfile, screen: Pick<ScreenState, "screenLines" | "quietMs">): boolean {
  if (profile.ready === null) return screen.quietMs >= profile.quietIdleMs;
  return profile.ready.test(bottom(screen.screenLines, 0).join("\n"));
}
