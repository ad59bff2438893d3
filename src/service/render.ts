// Turning a slice of a session's transcript into what a model reads.
import type { LineMatcher } from "../output/filter.js";
import { renderOutput, type Rendered } from "../output/index.js";
import { redactCredentials } from "../safety/index.js";
import type { TerminalSession } from "../terminal/session.js";

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

export function renderSlice(session: TerminalSession, request: RenderRequest): Rendered & { dropped_chars: number } {
  const slice = session.transcript.slice(request.from, request.to);
  let text = slice.text;
  let firstLine = slice.firstLine;
  if (request.trimEchoAndPrompt) {
    const firstBreak = text.indexOf("\n");
    const lastBreak = text.lastIndexOf("\n");
    if (firstBreak !== -1 && lastBreak >= firstBreak) {
      text = text.slice(firstBreak + 1, lastBreak + 1).replace(/\r?\n$/, "");
      firstLine += 1;
    } else {
      text = "";
    }
  }
  const rendered = renderOutput(text, {
    command: request.command,
    maxTokens: request.maxTokens,
    raw: request.raw,
    reduce: request.reduce,
    filter: request.filter,
    context: request.context,
    firstLine,
    session: session.name,
    secrets: session.secrets,
  });
  return { ...rendered, text: textForModel(session, rendered.text, request.raw), dropped_chars: slice.droppedBefore };
}

/** The last step before text leaves termhive: the session's secrets always, credential shapes unless raw. */
export function textForModel(session: TerminalSession, text: string, raw: boolean | undefined): string {
  const masked = session.redact(text);
  return raw ? masked : redactCredentials(masked);
}
