// terminal_read: what a model should see of a session right now.
import type { LineMatcher } from "../../output/filter.js";
import type { TerminalSession } from "../session/session.js";
import { renderSlice, textForModel } from "./render.js";
import { ToolError } from "../../util/tool-error.js";
import { renderOutputYielding } from "../../output/index.js";
import { renderScreenRows } from "./fullscreen.js";

export type ReadMode = "auto" | "new" | "screen" | "diff" | "lines" | "all";

export interface ReadRequest {
  mode: ReadMode;
  clientId: string;
  fromLine?: number;
  toLine?: number;
  raw?: boolean;
  filter?: LineMatcher;
  context?: number;
  maxTokens: number;
  reduce?: boolean;
}

export interface ReadResult {
  output: string;
  mode: Exclude<ReadMode, "auto">;
  tui: boolean;
  cursor?: { row: number; col: number };
  line_count: number;
  /** For "lines": the range actually returned. */
  from_line?: number;
  to_line?: number;
  tokens: number;
  raw_tokens: number;
  folded_lines: number;
  alive: boolean;
  exit_code?: number | null;
  note?: string;
}

/** Lines returned by "lines" when no range is given: the tail. */
const DEFAULT_LINES = 100;

export async function readSession(session: TerminalSession, request: ReadRequest): Promise<ReadResult> {
  await session.screen.settled();
  const tui = session.screen.snapshot().alternate;
  const mode: Exclude<ReadMode, "auto"> = request.mode === "auto" ? (tui ? "screen" : "new") : request.mode;
  const base = {
    mode,
    tui,
    line_count: session.transcript.lineCount,
    alive: session.alive,
    ...(session.alive ? {} : { exit_code: session.exitStatus }),
  };
  switch (mode) {
    case "screen":
    case "diff":
      return { ...base, ...renderScreen(session, request, mode) };
    case "new": {
      const from = session.readCursors.get(request.clientId) ?? session.transcript.start;
      const end = session.transcript.end;
      const rendered = await renderSlice(session, { from, to: end, ...renderOptions(request) });
      session.readCursors.set(request.clientId, end);
      const note =
        rendered.searched && rendered.dropped_chars > 0
          ? searchedNote(session, rendered.searched)
          : rendered.dropped_chars > 0
          ? `${rendered.dropped_chars} characters of output were dropped from memory before this read (TERMHIVE_TRANSCRIPT_MAX_CHARS); the recording at ${session.recorder.path} has them`
          : from === end
            ? `no new output since the last read${request.filter ? `; ${searchAllHint(session, request.filter)}` : ""}`
            : request.filter && rendered.text.startsWith("no line matches")
              ? `the filter searched only the output since the last read; ${searchAllHint(session, request.filter)}`
              : undefined;
      return { ...base, output: rendered.text, tokens: rendered.tokens, raw_tokens: rendered.raw_tokens, folded_lines: rendered.folded_lines, note };
    }
    case "all": {
      const rendered = await renderSlice(session, { from: session.transcript.start, ...renderOptions(request) });
      session.readCursors.set(request.clientId, session.transcript.end);
      const note = rendered.searched && rendered.searched.from_line > 1 ? searchedNote(session, rendered.searched) : undefined;
      return { ...base, output: rendered.text, tokens: rendered.tokens, raw_tokens: rendered.raw_tokens, folded_lines: rendered.folded_lines, note };
    }
    case "lines": {
      const last = session.transcript.lineCount;
      const to = Math.min(request.toLine ?? (request.fromLine !== undefined ? request.fromLine + DEFAULT_LINES - 1 : last), last);
      const from = Math.max(1, request.fromLine ?? to - DEFAULT_LINES + 1);
      if (from > to) throw new ToolError(`from_line ${from} is after to_line ${to} (the session has ${last} lines)`);
      const slice = session.transcript.lines(from, to);
      const rendered = await renderOutputYielding(slice.text, {
        ...renderOptions(request),
        reduce: false,
        firstLine: slice.firstLine,
        session: session.name,
        secrets: session.secrets,
      });
      const text = textForModel(session, rendered.text, request.raw);
      const note = slice.droppedBefore
        ? `lines ${from}–${from + slice.droppedBefore - 1} were dropped from memory; the recording at ${session.recorder.path} has them`
        : undefined;
      return { ...base, output: text, from_line: Math.max(from, slice.firstLine), to_line: to, tokens: rendered.tokens, raw_tokens: rendered.raw_tokens, folded_lines: rendered.folded_lines, note };
    }
  }
}

/** Default reads look only at unread output: a filter that found nothing there says how to search it all. */
function searchAllHint(session: TerminalSession, filter: NonNullable<ReadRequest["filter"]>): string {
  const pattern = "source" in filter && typeof filter.source === "string" ? filter.source : String(filter);
  return `to search everything the session holds: terminal_read {"session":${JSON.stringify(session.name)},"mode":"all","filter":${JSON.stringify(pattern)}}`;
}

/** A filter that could search only the lines still in memory says which those were. */
function searchedNote(session: TerminalSession, searched: { from_line: number; to_line: number }): string {
  return `the filter searched lines ${searched.from_line}–${searched.to_line}, those still in memory; the lines before ${searched.from_line} were dropped from memory (TERMHIVE_TRANSCRIPT_MAX_CHARS) and were not searched: the recording at ${session.recorder.path} has them`;
}

function renderOptions(request: ReadRequest) {
  return { maxTokens: request.maxTokens, raw: request.raw, reduce: request.reduce ?? false, filter: request.filter, context: request.context };
}

function renderScreen(session: TerminalSession, request: ReadRequest, mode: "screen" | "diff") {
  const snap = session.screen.snapshot();
  const lines = snap.lines.map((line) => session.redact(line));
  const previous = session.lastScreens.get(request.clientId);
  session.lastScreens.set(request.clientId, lines);
  let rows = lines;
  let keepRows = snap.cursor.row + 1;
  let note: string | undefined;
  if (mode === "diff" && previous) {
    rows = [];
    for (let row = 0; row < lines.length; row++) {
      if (lines[row] !== previous[row]) rows.push(`${String(row + 1).padStart(3)}| ${lines[row]}`);
    }
    keepRows = rows.length;
    note = rows.length ? `${rows.length} of ${lines.length} screen lines changed (row| text)` : "the screen has not changed since the last read";
  } else if (mode === "diff") {
    note = "first screen read of this client: the whole screen";
  }
  if (request.filter) {
    rows = filterRows(rows, request.filter, request.context ?? 0);
    keepRows = rows.length;
  }
  const rendered = renderScreenRows(session, rows, { keepRows, maxTokens: request.maxTokens, raw: request.raw, diff: mode === "diff" && previous !== undefined });
  return {
    output: rendered.text,
    cursor: snap.cursor,
    tokens: rendered.tokens,
    raw_tokens: rendered.raw_tokens,
    folded_lines: rendered.folded_lines,
    note,
  };
}

/**
 * The screen rows a filter keeps: those that match and `context` rows either side; each run of
 * rows left out becomes one line saying how many (the screen is small: no fetch call to name,
 * a read without the filter shows them).
 */
function filterRows(rows: readonly string[], filter: LineMatcher, context: number): string[] {
  const around = Math.max(0, Math.floor(context));
  const keep = rows.map(() => false);
  rows.forEach((row, index) => {
    if (!filter.test(row)) return;
    for (let k = Math.max(0, index - around); k <= Math.min(rows.length - 1, index + around); k++) keep[k] = true;
  });
  if (!keep.includes(true)) return [`no screen row matches ${String(filter)}`];
  const out: string[] = [];
  for (let i = 0; i < rows.length; ) {
    if (keep[i]) out.push(rows[i++]!);
    else {
      let j = i;
      while (j < rows.length && !keep[j]) j++;
      if (rows.slice(i, j).some((row) => row.trim() !== "")) out.push(`… ${j - i} screen row${j - i === 1 ? "" : "s"} not matching the filter`);
      i = j;
    }
  }
  return out;
}
