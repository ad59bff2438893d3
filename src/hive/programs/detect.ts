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
import { questionDigest, type Choice, type Question } from "./question.js";

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
  /** A rule-matched waiting_for_input: the question on screen, its choices and its digest. */
  question?: Question;
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

/** The line holding a match, cut where the match ends (when it ends on that line). */
function questionLine(text: string, index: number, length: number): string {
  const start = text.lastIndexOf("\n", index - 1) + 1;
  const lineEnd = text.indexOf("\n", index);
  const end = Math.min(lineEnd === -1 ? text.length : lineEnd, index + Math.max(1, length));
  const line = text.slice(start, end).trim();
  return line.length > MAX_DETAIL ? line.slice(0, MAX_DETAIL - 1) + "…" : line;
}

/** A match's length: a RegExp match's [0], a SafeRegex match's text. */
function matchLength(m: { index: number }): number {
  const text = (m as { 0?: unknown; text?: unknown })[0] ?? (m as { text?: unknown }).text;
  return typeof text === "string" ? text.length : 1;
}

/** A menu choice: "❯ 1. Yes", "  2. No", "› 1. Try new model" (a box's "│" edges allowed). */
const NUMBERED_CHOICE = /^[\s│]*(?:[❯›>▶]\s*)?(\d{1,2})\.\s+(.*?)[\s│]*$/;
/** The cursor on an unnumbered choice: "❯ Yes, set auto mode…" */
const CURSOR_CHOICE = /^([\s│]*[❯›]\s+)(\S.*?)[\s│]*$/;

/**
 * Whether the lines below a dialog and its menu hold the profile's input box (its idle
 * input-prompt rule): the box is newer than the question, which was answered.
 */
function inputBoxIn(profile: AgentProfile, below: string): boolean {
  if (below.trim() === "") return false;
  return profile.rules.some((r) => r.status === "idle" && !r.overridesHooks && r.minQuietMs > 0 && r.pattern.test(below));
}

interface Menu {
  /** First and last line of the choices. */
  at: number;
  last: number;
  choices: string[];
  /** Index of the choice the cursor (❯ ›) is on, or null. */
  cursor: number | null;
}

const CURSOR_MARK = /^[\s│]*[❯›>▶]/;

/** The menu at or below line `from`: contiguous numbered choices, else the cursor's unnumbered options. */
function choicesOf(lines: readonly string[], from: number): Menu | null {
  const numbered: { at: number; text: string }[] = [];
  for (let i = from; i < lines.length; i++) {
    const m = NUMBERED_CHOICE.exec(lines[i]!);
    if (m && m[2]) numbered.push({ at: i, text: `${m[1]}. ${m[2]}` });
    else if (numbered.length > 0) break;
  }
  if (numbered.length > 0) {
    const cursor = numbered.findIndex((c) => CURSOR_MARK.test(lines[c.at]!));
    return { at: numbered[0]!.at, last: numbered.at(-1)!.at, choices: numbered.map((c) => c.text), cursor: cursor === -1 ? null : cursor };
  }
  const cursor = lines.findIndex((l, i) => i >= from && CURSOR_CHOICE.test(l));
  if (cursor === -1) return null;
  const m = CURSOR_CHOICE.exec(lines[cursor]!)!;
  const column = m[1]!.length;
  // Options are the lines around the cursor whose text starts in the cursor option's column.
  const option = (l: string | undefined) => l !== undefined && l.length > column && l.slice(0, column).trim().replace(/[│❯›]/g, "") === "" && /\S/.test(l[column]!);
  let first = cursor;
  while (first - 1 >= from && option(lines[first - 1]) && !/\?\s*│?$/.test(lines[first - 1]!)) first--;
  let last = cursor;
  while (option(lines[last + 1])) last++;
  const choices = lines.slice(first, last + 1).map((l) => l.slice(column).replace(/[\s│]*$/, ""));
  return { at: first, last, choices, cursor: cursor - first };
}

/**
 * A dialog's detail: its label, the question and the choices, e.g.
 * "permission prompt: Do you want to proceed? 1. Yes / 2. No"; without a menu on screen the
 * label alone.
 */
function describeDialog(lines: readonly string[], menu: Menu | null, label: string): { detail: string; question: string } {
  if (!menu) return { detail: label, question: "" };
  const clean = (l: string) => l.replace(/^[\s│]+|[\s│]+$/g, "");
  let question = "";
  let asked = "";
  for (let i = menu.at - 1; i >= Math.max(0, menu.at - 8); i--) {
    const l = clean(lines[i]!);
    if (l === "" || /^[─╌━═-]+$/.test(l)) continue;
    if (/\?$/.test(l)) {
      question = l;
      asked = "";
      break;
    }
    if (question === "") question = l;
    // A question inside a paragraph (Claude Code 2.1.332's trust dialog: "Quick safety check:
    // Is this a project you created or one you trust? (Like …"): its sentence, if no line ends in one.
    asked ||= /(?:^|[.!:]\s)([^.!?]*\?)(?=\s|$)/.exec(l)?.[0].replace(/^[.!]\s/, "").trim() ?? "";
  }
  if (asked) question = asked;
  const out = `${label}: ${question ? `${question} ` : ""}${menu.choices.map(clean).join(" / ")}`;
  return { detail: out.length > MAX_DIALOG_DETAIL ? out.slice(0, MAX_DIALOG_DETAIL - 1) + "…" : out, question };
}

/** "2. Yes, and don't ask again" → {number: 2, label: "Yes, and don't ask again"}. */
function choiceOf(text: string): Choice {
  const clean = text.replace(/^[\s│]+|[\s│]+$/g, "");
  const m = /^(\d{1,2})\.\s+(.*)$/.exec(clean);
  return m ? { number: Number(m[1]), label: m[2]! } : { number: null, label: clean };
}

/** The question a dialog shows; its digest covers what the detail and the question line say. */
function questionOf(menu: Menu | null, dialog: { detail: string; question: string }): Question {
  return { digest: questionDigest(`${dialog.detail}\n${dialog.question}`), text: dialog.question, choices: menu ? menu.choices.map(choiceOf) : [], cursor: menu?.cursor ?? null };
}

/** How far up a dialog's menu and question are looked for, above a footer rule's match. */
const DIALOG_LINES = 30;

/** A dialog's detail holds its question and choices: longer than a matched line's. */
const MAX_DIALOG_DETAIL = 200;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

export function detectStatus(profile: AgentProfile, screen: ScreenState): DetectedStatus {
  if (screen.exited) {
    return { status: "exited", detail: screen.exitCode != null ? `exit code ${screen.exitCode}` : "program ended", by: "exit" };
  }
  for (const rule of profile.rules) {
    if (screen.quietMs < rule.minQuietMs) continue;
    const text = bottom(screen.screenLines, rule.lines).join("\n");
    const m = rule.pattern.exec(text);
    if (!m) continue;
    if (rule.status === "waiting_for_input") {
      let lines = text.split("\n");
      const matchLine = text.slice(0, m.index).split("\n").length - 1;
      let matchEnd = text.slice(0, m.index + Math.max(1, matchLength(m)) - 1).split("\n").length - 1;
      // The question may be the matched line or just above it: look for the menu from a few lines up.
      const searchFrom = Math.max(0, matchLine - 2);
      let menu = choicesOf(lines, searchFrom);
      // A footer rule ("Esc to cancel", a few bottom lines) sees no menu, or only the part of it
      // inside its lines: the menu and its question sit right above it, on the wider screen
      // (hive_answer needs all the choices).
      if ((!menu || menu.at === searchFrom) && rule.lines > 0 && rule.lines < DIALOG_LINES) {
        const wide = bottom(screen.screenLines, DIALOG_LINES);
        const shift = wide.length - lines.length;
        const near = choicesOf(wide, Math.max(0, shift + matchLine - 8));
        const same = menu ? near?.last === shift + menu.last : near !== null && near.last < shift + matchLine && near.last >= shift + matchLine - 2;
        if (near && same) {
          lines = wide;
          menu = near;
          matchEnd += shift;
        }
      }
      // A question that scrolled above a newer input box was answered: input goes to the box.
      const below = lines.slice(Math.max(matchEnd, menu?.last ?? 0) + 1).join("\n");
      if (inputBoxIn(profile, below)) continue;
      const dialog = describeDialog(lines, menu, rule.detail ?? lineAt(text, m.index));
      // Without a menu the question is the matched line up to the match's end (a shell's
      // "[y/N]", aider's "(Y)es/(N)o"): what follows it on the line is the answer being typed.
      if (!menu) dialog.question = questionLine(text, m.index, matchLength(m));
      return { status: rule.status, detail: dialog.detail, by: "rule", question: questionOf(menu, dialog), ...(rule.overridesHooks ? { overridesHooks: true as const } : {}) };
    }
    return { status: rule.status, detail: rule.detail ?? lineAt(text, m.index), by: "rule", ...(rule.overridesHooks ? { overridesHooks: true as const } : {}) };
  }
  if (screen.ready === false) return { status: "starting", detail: "waiting for the program to be ready", by: "quiet" };
  if (screen.quietMs < profile.quietIdleMs) return { status: "working", detail: "output is changing", by: "quiet" };
  return { status: profile.quietStatus, detail: `quiet for ${seconds(screen.quietMs)}, no known prompt on screen`, by: "quiet" };
}

/** How many bottom lines of the screen an unknown question is read from. */
const UNKNOWN_LINES = 12;

/**
 * The question a screen shows that no rule knows: a menu among its bottom lines (the cursor on
 * an option, or numbered choices) with the line above it, else its bottom lines as they are.
 */
export function screenQuestion(screenLines: readonly string[], label: string): { detail: string; question: Question } {
  const lines = bottom(screenLines, UNKNOWN_LINES);
  const clean = (l: string) => l.replace(/^[\s│]+|[\s│]+$/g, "");
  const isText = (l: string) => l !== "" && !/^[─╌━═-]+$/.test(l);
  const menu = choicesOf(lines, 0);
  // Its words: the paragraph right above the menu (no rule knows which line is the question).
  const words: string[] = [];
  for (let i = (menu?.at ?? lines.length) - 1; i >= 0 && words.length < 4; i--) {
    const l = clean(lines[i]!);
    if (!isText(l)) {
      if (words.length > 0) break;
      continue;
    }
    words.unshift(l);
  }
  const text = words.join(" ");
  const out = `${label}: ${text}${menu ? ` ${menu.choices.map(clean).join(" / ")}` : ""}`;
  const detail = out.length > MAX_DIALOG_DETAIL ? out.slice(0, MAX_DIALOG_DETAIL - 1) + "…" : out;
  return { detail, question: questionOf(menu, { detail, question: text }) };
}

/**
 * Whether a freshly started agent accepts input: its ready pattern is on screen, or (no
 * pattern) its output has been quiet for quietIdleMs.
 */
export function isReady(profile: AgentProfile, screen: Pick<ScreenState, "screenLines" | "quietMs">): boolean {
  if (profile.ready === null) return screen.quietMs >= profile.quietIdleMs;
  return profile.ready.test(bottom(screen.screenLines, 0).join("\n"));
}
