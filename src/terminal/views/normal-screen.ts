// What a slice of the transcript printed on the normal screen. A full-screen program (less,
// vim, top) draws on the alternate screen: its transcript is every redraw it made (less's
// first page twice, "...skipping...", the page searched to), and the terminal puts the normal
// screen back when it leaves. Read as output after it quit, that is ~1500 tokens of junk (trial
// 15); what was printed on the normal screen around it is the command's output.
import { countTokens } from "../../output/index.js";
import { stripAnsi } from "../../util/ansi.js";
import type { TerminalSession } from "../session/session.js";
import { renderSlice, type RenderRequest } from "./render.js";
import type { Rendered } from "../../output/index.js";

/** xterm's alternate-screen modes: 1049 (with the cursor saved), 1047 and the older 47. */
const ALTERNATE = /\x1b\[\?(?:1049|1047|47)([hl])/g;
/** How far before a slice the screen it starts on is looked for (the sequence that entered or left last). */
const LOOK_BACK_CHARS = 2 * 1024 * 1024;

export interface ScreenParts {
  /** Printed on the normal screen before the first full-screen program's start (or the whole slice, without one). */
  before: { start: number; end: number };
  /** From that start to the last full-screen program's end: its redraws (and any normal lines between two of them). */
  alternate?: { start: number; end: number };
  /** Printed on the normal screen after that end. */
  after?: { start: number; end: number };
}

/** Transcript [from, to) split around the span full-screen programs drew on the alternate screen. */
export function screenParts(session: TerminalSession, from: number, to: number): ScreenParts {
  const t = session.transcript;
  const start = Math.max(from, t.start);
  const end = Math.max(start, Math.min(to, t.end));
  let onAlternate = alternateAt(session, start);
  let first = onAlternate ? start : undefined;
  let left = start;
  for (const match of t.slice(start, end).text.matchAll(ALTERNATE)) {
    const entering = match[1] === "h";
    if (entering === onAlternate) continue;
    onAlternate = entering;
    if (entering) first ??= start + match.index;
    else left = start + match.index + match[0].length;
  }
  if (first === undefined) return { before: { start, end } };
  const last = onAlternate ? end : left;
  return { before: { start, end: first }, alternate: { start: first, end: last }, ...(last < end ? { after: { start: last, end } } : {}) };
}

/** Whether the terminal was on the alternate screen at `offset` (as far as the transcript held shows). */
function alternateAt(session: TerminalSession, offset: number): boolean {
  const t = session.transcript;
  const before = t.slice(Math.max(t.start, offset - LOOK_BACK_CHARS), offset).text;
  let last: string | undefined;
  for (const match of before.matchAll(ALTERNATE)) last = match[1];
  return last === "h";
}

/**
 * renderSlice of what [from, to) printed on the normal screen: a full-screen program's span is
 * one line naming the lines it took, and what was printed before it and after it (the
 * command's own output once the program quit) are rendered as any output is (a run's reducer
 * included). terminal_wait and terminal_run both read a finished command this way.
 */
export async function renderNormalScreen(session: TerminalSession, request: Omit<RenderRequest, "filter" | "context">): Promise<Rendered> {
  const to = request.to ?? session.transcript.end;
  const parts = request.raw || request.trimEchoAndPrompt ? undefined : screenParts(session, request.from, to);
  if (!parts?.alternate) return renderSlice(session, { ...request, to });
  const t = session.transcript;
  const lines = JSON.stringify({ session: session.name, mode: "lines", from_line: t.lineAt(parts.alternate.start), to_line: t.lineAt(parts.alternate.end) });
  const marker = `[a full-screen program's screens, not output: terminal_read ${lines}]`;
  let room = Math.max(100, request.maxTokens - countTokens(marker));
  const shown: string[] = [];
  const total = { raw_tokens: countTokens(marker), folded_lines: 0, reducer: undefined as string | undefined };
  const render = async (part: { start: number; end: number } | undefined): Promise<string> => {
    if (!part || !/\S/.test(stripAnsi(session.printedText(part.start, part.end)))) return "";
    const rendered = await renderSlice(session, { ...request, from: part.start, to: part.end, maxTokens: Math.max(50, room) });
    room -= rendered.tokens;
    total.raw_tokens += rendered.raw_tokens;
    total.folded_lines += rendered.folded_lines;
    total.reducer ??= rendered.reducer;
    return rendered.text;
  };
  // The end is what the command left: it gets its budget first.
  const after = await render(parts.after);
  const before = await render(parts.before);
  for (const text of [before, marker, after]) if (text.trim() !== "") shown.push(text);
  const text = shown.join("\n");
  return { text, tokens: countTokens(text), ...total };
}
