// Turning a slice of a session's transcript into what a model reads.
import type { LineMatcher } from "../../output/filter.js";
import { cleanLines, countTokens, renderOutputYielding, type Rendered } from "../../output/index.js";
import { FOLD_HEAD_LINES } from "../../output/fold.js";
import { cutOverlong } from "../../output/overlong.js";
import { maskSecrets } from "../../output/secrets.js";
import { redactCredentials } from "../../safety/index.js";
import type { TerminalSession } from "../session/session.js";
import { countLines } from "../../output/screen.js";
import { filterSlice, type FilteredSlice } from "./filter-slice.js";

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

export async function renderSlice(session: TerminalSession, request: RenderRequest): Promise<Rendered & { dropped_chars: number; searched?: FilteredSlice["searched"] }> {
  // A filter searches every held line, however long the slice: never only a head and a tail.
  // With raw too: a filtered raw read keeps the matching lines as written.
  if (request.filter) {
    const filtered = await filterSlice(session, { ...request, filter: request.filter });
    return { ...filtered, text: textForModel(session, filtered.text, request.raw) };
  }
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
  // Folded once: the output's first lines, one marker for everything between them and what the
  // tail's fold keeps (its important lines and last lines), then those. Folding the head and the
  // tail each on its own showed two heads and two markers.
  const shownHead = firstLines(headPart.text, FOLD_HEAD_LINES);
  const skippedFrom = headPart.firstLine + (shownHead === "" ? 0 : countLines(shownHead));
  // Each line masked before it is cut, as the fold does: a cut can never leave half a secret.
  const headClean = request.raw ? shownHead : cleanLines(shownHead).map((line) => cutOverlong(maskSecrets(line.text, session.secrets))).join("\n");
  const headRendered = textForModel(session, headClean, request.raw);
  const headTokens = countTokens(headRendered);
  const last = await renderPart(session, request, tailPart.text, tailPart.firstLine, Math.max(100, request.maxTokens - headTokens), 0);
  // The tail's fold starts with a marker for its own first lines: this marker takes them in.
  const leading = LEADING_MARKER.exec(last.text);
  const hiddenTo = leading ? Number(leading[1]) : tailPart.firstLine - 1;
  const tailText = leading ? last.text.slice(leading[0].length) : last.text;
  const skippedLines = Math.max(0, hiddenTo - skippedFrom + 1);
  const gone = tailStart > t.start && headEnd >= t.start ? "" : `, part no longer in memory (the recording ${session.recorder.path} has all of it)`;
  const read = JSON.stringify({ session: session.name, mode: "lines", from_line: skippedFrom, to_line: hiddenTo });
  const marker = `… ${skippedLines} lines hidden${gone}: terminal_read ${read}`;
  const text = [headRendered, skippedLines > 0 ? marker : "", tailText].filter((part) => part !== "").join("\n");
  const shown = headPart.text.length + tailPart.text.length;
  const result: Rendered & { dropped_chars: number } = {
    text,
    tokens: countTokens(text),
    // Scaled from the parts rendered: counting every character would need the whole slice.
    raw_tokens: shown === 0 ? 0 : Math.round(((countTokens(headPart.text) + last.raw_tokens) * (to - request.from)) / shown),
    raw_tokens_estimated: true,
    folded_lines: skippedLines + Math.max(0, last.folded_lines - (leading ? hiddenTo - tailPart.firstLine + 1 : 0)),
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

/** A fold marker at the very start of a text, capturing the last line it hides. */
const LEADING_MARKER = /^… \d+ lines hidden(?: \(\d+ look important\))?: terminal_read \{[^\n]*"to_line":(\d+)\}(?:\n|$)/;

/** The first `count` lines of a text. */
function firstLines(text: string, count: number): string {
  let end = -1;
  for (let i = 0; i < count; i++) {
    const next = text.indexOf("\n", end + 1);
    if (next === -1) return text;
    end = next;
  }
  return text.slice(0, end);
}

async function renderPart(session: TerminalSession, request: RenderRequest, text: string, firstLine: number, maxTokens: number, headLines?: number): Promise<Rendered> {
  const rendered = await renderOutputYielding(text, {
    headLines,
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
