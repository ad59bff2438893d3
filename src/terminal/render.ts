// Turning a slice of a session's transcript into what a model reads.
import type { LineMatcher } from "../output/filter.js";
import { countTokens, renderOutputYielding, type Rendered } from "../output/index.js";
import { redactCredentials } from "../safety/index.js";
import type { TerminalSession } from "./session.js";
import { countLines } from "../output/screen.js";

export interface RenderRequest {
  from: number;
  to?: number;
  command?: string;
  maxTokens: number;
  raw?: boolean;
  reduce?: boolean;
  filter?: LineMatcher;
  context?: number;
  /** Drop the first line (a REPL's echo of what was typed) and the last (its next prompt). */
  trimEchoAndPrompt?: boolean;
}

/**
 * Above this many characters only a head and a tail are rendered, with a line between them
 * saying what was left out and how to read it: a 16 MB slice split into millions of lines
 * took ~120 MB of the server's memory to fold down to 2000 tokens nobody reads in full.
 */
const RENDER_MAX_CHARS = 1_000_000;
const HEAD_CHARS = 8 * 1024;
const TAIL_CHARS = RENDER_MAX_CHARS - HEAD_CHARS;

export async function renderSlice(session: TerminalSession, request: RenderRequest): Promise<Rendered & { dropped_chars: number }> {
  const t = session.transcript;
  const to = Math.min(request.to ?? t.end, t.end);
  const droppedBefore = Math.max(0, t.start - request.from);
  // A command's first output survives the transcript cap as its pinned head (transcript.ts).
  const pinned = droppedBefore > 0 ? t.headOf(request.from) : undefined;
  if (!pinned && to - Math.max(request.from, t.start) <= RENDER_MAX_CHARS) {
    const slice = t.slice(request.from, to);
    const trimmed = request.trimEchoAndPrompt ? trimEcho(trimPrompt({ text: slice.text, firstLine: slice.firstLine })) : slice;
    return { ...(await renderPart(session, request, trimmed.text, trimmed.firstLine, request.maxTokens)), dropped_chars: slice.droppedBefore };
  }
  // Head: whole lines from the start of the output (kept by the pin when the cap dropped it).
  const head = pinned ?? t.slice(request.from, Math.max(request.from, t.start) + HEAD_CHARS);
  const headCut = head.text.lastIndexOf("\n");
  const headText = headCut === -1 ? "" : head.text.slice(0, headCut);
  const headEnd = head.start + (headCut === -1 ? 0 : headCut + 1);
  // Tail: whole lines up to the end.
  const tailFrom = Math.max(t.start, headEnd, to - TAIL_CHARS);
  const tail = t.slice(tailFrom, to);
  const tailBreak = tailFrom > headEnd ? tail.text.indexOf("\n") : -1;
  let tailPart = { text: tail.text.slice(tailBreak + 1), firstLine: tail.firstLine + (tailBreak === -1 ? 0 : 1) };
  const tailStart = tailFrom + tailBreak + 1;
  let headPart = { text: headText, firstLine: head.firstLine };
  if (request.trimEchoAndPrompt) {
    headPart = trimEcho(headPart);
    tailPart = trimPrompt(tailPart);
  }
  const headLines = headText === "" ? 0 : countLines(headText);
  const skippedFrom = head.firstLine + headLines;
  const skippedLines = Math.max(0, tailPart.firstLine - skippedFrom);
  const gone = tailStart > t.start && headEnd >= t.start ? "" : `, part dropped from memory (the recording ${session.recorder.path} has all of it)`;
  const read = JSON.stringify({ session: session.name, mode: "lines", from_line: skippedFrom, to_line: tailPart.firstLine - 1 });
  const marker = `… ${skippedLines} lines (${tailStart - headEnd} characters) not shown${gone}: terminal_read ${read}`;
  const headBudget = Math.max(100, Math.floor(request.maxTokens / 5));
  const first = await renderPart(session, { ...request, reduce: false }, headPart.text, headPart.firstLine, headBudget);
  const last = await renderPart(session, request, tailPart.text, tailPart.firstLine, Math.max(100, request.maxTokens - headBudget));
  const text = [first.text, marker, last.text].filter((part) => part !== "").join("\n");
  const shown = headPart.text.length + tailPart.text.length;
  const result: Rendered & { dropped_chars: number } = {
    text,
    tokens: first.tokens + last.tokens + countTokens(marker),
    // Scaled from the parts rendered: counting every character would need the whole slice.
    raw_tokens: shown === 0 ? 0 : Math.round(((first.raw_tokens + last.raw_tokens) * (to - request.from)) / shown),
    raw_tokens_estimated: true,
    folded_lines: first.folded_lines + last.folded_lines + skippedLines,
    dropped_chars: droppedBefore,
  };
  if (last.reducer) result.reducer = last.reducer;
  return result;
}

/** Drops the first line (a REPL's echo of what was typed). */
function trimEcho(part: { text: string; firstLine: number }): { text: string; firstLine: number } {
  const firstBreak = part.text.indexOf("\n");
  return firstBreak === -1 ? { text: "", firstLine: part.firstLine } : { text: part.text.slice(firstBreak + 1), firstLine: part.firstLine + 1 };
}

/** Drops the last line (the program's next prompt). */
function trimPrompt(part: { text: string; firstLine: number }): { text: string; firstLine: number } {
  const lastBreak = part.text.lastIndexOf("\n");
  return { text: lastBreak === -1 ? "" : part.text.slice(0, lastBreak).replace(/\r$/, ""), firstLine: part.firstLine };
}

async function renderPart(session: TerminalSession, request: RenderRequest, text: string, firstLine: number, maxTokens: number): Promise<Rendered> {
  const rendered = await renderOutputYielding(text, {
    command: request.command,
    maxTokens,
    raw: request.raw,
    reduce: request.reduce,
    filter: request.filter,
    context: request.context,
    firstLine,
    session: session.name,
    secrets: session.secrets,
  });
  return { ...rendered, text: textForModel(session, rendered.text, request.raw) };
}

/** The last step before text leaves termhive: the session's secrets always, credential shapes unless raw. */
export function textForModel(session: TerminalSession, text: string, raw: boolean | undefined): string {
  const masked = session.redact(text);
  return raw ? masked : redactCredentials(masked);
}
