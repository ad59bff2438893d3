// A filter over a transcript slice of any size: every held line is searched, part by part, so
// a match is never missed because the slice was too long to render whole (a render keeps only
// a head and a tail of such a slice). Lines the transcript's cap dropped cannot be searched:
// the result says which lines were.
import { FilterScan, countTokensBounded, renderChosenLines, type Rendered } from "../../output/index.js";
import type { LineMatcher } from "../../output/filter.js";
import type { TerminalSession } from "../session/session.js";

/** Characters cleaned and matched at a time. */
const PART_CHARS = 1_000_000;

export interface FilterSliceRequest {
  from: number;
  to?: number;
  filter: LineMatcher;
  context?: number;
  maxTokens: number;
  /** Matching lines come back as written, escape codes kept. */
  raw?: boolean;
}

export interface FilteredSlice extends Rendered {
  /** The transcript lines searched (none: from_line > to_line). */
  searched: { from_line: number; to_line: number };
  /** Characters asked for that the transcript no longer holds. */
  dropped_chars: number;
}

/** The text comes back with the session's secrets masked; credential redaction is the caller's (textForModel). */
export async function filterSlice(session: TerminalSession, request: FilterSliceRequest): Promise<FilteredSlice> {
  const t = session.transcript;
  const to = Math.min(request.to ?? t.end, t.end);
  let at = Math.max(request.from, t.start);
  const dropped = Math.max(0, t.start - request.from);
  if (t.start > 0 && at === t.start) {
    // The oldest held line may have lost its start with the dropped text: a pattern anchored at
    // ^ would judge what is left of it. The search starts at the next whole line.
    const first = t.slice(at, Math.min(to, at + PART_CHARS)).text.indexOf("\n");
    at = first === -1 ? to : at + first + 1;
  }
  const firstLine = t.lineAt(at);
  const scan = new FilterScan(request.filter, Math.max(0, Math.floor(request.context ?? 0)), session.secrets, request.raw);
  let rawTokens = 0;
  while (at < to) {
    let end = Math.min(to, at + PART_CHARS);
    let text = t.slice(at, end).text;
    if (end < to) {
      // Parts end on a line's end, so no line is cleaned or matched in two pieces.
      const lastBreak = text.lastIndexOf("\n");
      if (lastBreak !== -1) {
        text = text.slice(0, lastBreak);
        end = at + lastBreak + 1;
      }
    }
    rawTokens += countTokensBounded(text).count;
    await scan.add(text, t.lineAt(at) - firstLine);
    at = end;
    // Cleaning a part holds the event loop tens of ms: other clients get a turn between parts.
    if (at < to) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const chosen = scan.finish({ session: session.name, firstLine });
  const rendered = renderChosenLines(chosen, rawTokens, { maxTokens: request.maxTokens, firstLine, session: session.name, secrets: session.secrets });
  return {
    ...rendered,
    searched: { from_line: firstLine, to_line: firstLine + scan.lastIndex },
    dropped_chars: dropped,
  };
}
