// A question an agent shows on screen (a permission dialog, a menu, a y/n prompt) and how an
// answer to it becomes keys. The digest names one question as a person or a program saw it:
// agent_list, hive_events and a notification carry it, and hive_answer refuses an answer whose
// digest is not the question on screen now (the dialog moved on, another one came up).
// Pure: the screen is read and the keys typed by the caller (live/answer.ts).
import { createHash } from "node:crypto";
import { HiveError } from "../store/errors.js";

export interface Choice {
  /** The number printed before it ("1." → 1), or null in an unnumbered menu. */
  number: number | null;
  /** Its text without the number: "Yes, and don't ask again". */
  label: string;
}

export interface Question {
  /** Short hex digest of the dialog as detected (label, question, choices). */
  digest: string;
  /** The question's line ("Do you want to proceed?"), or "" when none was found above the menu. */
  text: string;
  choices: Choice[];
  /** Index into choices of the menu cursor (❯ / ›), or null when none is shown. */
  cursor: number | null;
}

/** The digest of a dialog's detail (what detect.ts describes it as): 12 hex characters. */
export function questionDigest(detail: string): string {
  return createHash("sha256").update(detail).digest("hex").slice(0, 12);
}

/** How an answer is typed: keys as tmux names them, or text followed by Enter. */
export type AnswerPlan =
  | { kind: "choice"; choice: Choice; index: number; keys: string[] }
  | { kind: "text"; text: string };

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ").replace(/\s*\((?:esc|y|n|a|p)\)$/, "");
const YES = /^(?:y|yes)$/i;
// C0 controls (tab aside), DEL, C1 controls, and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;
const NO = /^(?:n|no)$/i;

function listChoices(q: Question): string {
  return q.choices.map((c, i) => (c.number !== null ? `${c.number}. ${c.label}` : `${i + 1}) ${c.label}`)).join(" / ");
}

/**
 * The keys that pick the answered choice. A numbered menu takes its number (Claude Code, Codex
 * and the usual TUI menus pick the option on its digit); an unnumbered one is walked with the
 * arrows from the cursor, then Enter.
 */
function keysFor(q: Question, index: number): string[] {
  const choice = q.choices[index]!;
  if (choice.number !== null && choice.number < 10) return [String(choice.number)];
  const from = q.cursor ?? 0;
  const step = index >= from ? "Down" : "Up";
  return [...Array<string>(Math.abs(index - from)).fill(step), "Enter"];
}

/**
 * What `answer` means for question `q`: a choice by its number, its label (whole, or a prefix
 * that fits one choice only), or yes/no (the first choice starting "Yes"/"No"); with no menu on
 * screen, the text itself. An answer that fits no choice of a menu is an error naming them.
 */
export function planAnswer(q: Question, answer: string): AnswerPlan {
  const given = answer.trim();
  if (given === "") throw new HiveError("invalid", "answer is empty");
  // An answer is one literal line: a CR, LF or escape inside it would answer, then type the
  // rest at whatever comes next (a shell: a command run), or end a bracketed paste early.
  const control = CONTROL.exec(given);
  if (control) {
    throw new HiveError("invalid", `an answer is one line of text; it holds the control character ${JSON.stringify(control[0])} at ${control.index} (line breaks and escapes are not typed)`);
  }
  if (q.choices.length === 0) {
    if (YES.test(given)) return { kind: "text", text: "y" };
    if (NO.test(given)) return { kind: "text", text: "n" };
    return { kind: "text", text: given };
  }
  const pick = (index: number): AnswerPlan => ({ kind: "choice", choice: q.choices[index]!, index, keys: keysFor(q, index) });
  if (/^\d{1,2}\.?$/.test(given)) {
    const n = Number.parseInt(given, 10);
    const byNumber = q.choices.findIndex((c) => c.number === n);
    if (byNumber !== -1) return pick(byNumber);
    // An unnumbered menu: its choices counted from 1.
    if (q.choices.every((c) => c.number === null) && n >= 1 && n <= q.choices.length) return pick(n - 1);
    throw new HiveError("invalid", `no choice ${n}; the choices are: ${listChoices(q)}`);
  }
  const wanted = norm(given);
  const exact = q.choices.findIndex((c) => norm(c.label) === wanted);
  if (exact !== -1) return pick(exact);
  const prefixed = q.choices.map((c, i) => (norm(c.label).startsWith(wanted) ? i : -1)).filter((i) => i !== -1);
  if (prefixed.length === 1) return pick(prefixed[0]!);
  const word = YES.test(given) ? "yes" : NO.test(given) ? "no" : null;
  if (word) {
    const first = q.choices.findIndex((c) => norm(c.label).startsWith(word));
    if (first !== -1) return pick(first);
  }
  if (prefixed.length > 1) throw new HiveError("invalid", `${JSON.stringify(given)} fits several choices: ${prefixed.map((i) => q.choices[i]!.label).join(" / ")}; give its number`);
  throw new HiveError("invalid", `${JSON.stringify(given)} is none of the choices: ${listChoices(q)}`);
}
