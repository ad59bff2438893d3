// terminal_wait: block until a pattern shows, the running command completes, output goes
// idle, or the program exits. Output printed before the call but not yet read counts; a
// pattern is looked for only in output since the last input sent to the session (from any
// process that followed the session when it was sent; a process that adopted the pane after
// it looks at the adopted history too).
import type { TermhiveConfig } from "../../config.js";
import type { TerminalSession } from "../session/session.js";
import { CallCancelledError, LIVENESS_QUIET_MS, livenessProbe, watchSession } from "./watch.js";
import { stripAnsi } from "../../util/ansi.js";
import { drawnText } from "../../output/clean.js";
import type { SafeRegex } from "../../util/regex.js";
import { ToolError } from "../../util/tool-error.js";
import { renderFullscreen } from "../views/fullscreen.js";
import { completedSince, onAlternateScreen } from "./completion.js";
import { renderNormalScreen } from "../views/normal-screen.js";
import { typedLineEnd, type LookFrom } from "../session/input-marks.js";
import { TYPED_ELSEWHERE_SETTLE_MS } from "../session/input-echo.js";

export type WaitFor = "pattern" | "completion" | "idle" | "exit";


export interface WaitRequest {
  for: WaitFor;
  pattern?: SafeRegex;
  timeoutMs: number;
  idleMs: number;
  clientId: string;
  maxTokens: number;
  onProgress?: (elapsedMs: number) => void;
  signal?: AbortSignal;
}

export interface WaitResult {
  matched: boolean;
  reason: WaitFor | "timeout";
  output: string;
  match?: string;
  exit_code?: number | null;
  tokens: number;
  duration_ms: number;
  /** A full-screen program holds the alternate screen: output is that screen, row by row. */
  tui?: true;
  /** Where a pattern was looked for: output since the last input (or your last read, if later), or since the wait began. */
  looked_since?: LookFrom["since"] | "read";
}

export async function waitSession(session: TerminalSession, request: WaitRequest, config: TermhiveConfig): Promise<WaitResult> {
  if (request.for === "pattern" && !request.pattern) throw new ToolError(`for: "pattern" needs a pattern`);
  const started = Date.now();
  const cursor = session.readCursors.get(request.clientId);
  // A client that never read here (a fresh CLI process) is shown what followed the last input,
  // whatever it waits for: the adopted history before it is older output (trial 15: pages of it).
  const look = request.for === "pattern" || cursor === undefined ? await session.inputs.lookFrom(() => session.transcript.end) : undefined;
  // Output this client already read is not looked at again; nothing ever sent: all of it is the program's own.
  const since = look && cursor !== undefined && (look.since === "open" || cursor > look.from) ? "read" : look?.since;
  // "start": the input came before this process followed the session, so what followed it lies
  // somewhere in the adopted history: looked at from this client's last read, as any other wait
  // (a fresh process per call sends in one and waits in the next; an older matching line there
  // can then be the match, which the result's looked_since says).
  // There the echo of the line typed last is found by its digest (the typing process kept it
  // with the pane): a fresh CLI process's `wait --pattern` after `send` matched that echo itself.
  const echoEnd = since === "start" && look?.typed ? typedLineEnd(session.transcript.slice(session.transcript.start).text, session.transcript.start, look.typed, stripAnsi) : undefined;
  const from = Math.max(since === "input" ? look!.from : (cursor ?? session.transcript.start), echoEnd ?? 0, session.transcript.start);
  const completed = completedSince(session, from, { idleMs: request.idleMs, promptQuietMs: config.promptQuietMs });
  let match: string | undefined;
  let exitCode: number | null | undefined;

  const probeLiveness = livenessProbe(session);
  const outcome = await watchSession<true>(
    session,
    async () => {
      // A lost exit notification must not turn into a timeout.
      if (request.for === "exit" || request.for === "completion") await probeLiveness();
      switch (request.for) {
        case "pattern": {
          const found = await request.pattern!.execAsync(stripAnsi(session.printedText(from)));
          if (found) {
            // Carried as a terminal draws it (no \r or \b), as output is.
            match = drawnText(found.text);
            return true;
          }
          return session.alive ? undefined : failDead(session);
        }
        case "completion": {
          // A command finished since this client last read (or the one running now finishes).
          const done = await completed();
          if (!done) return undefined;
          exitCode = done.exitCode;
          return true;
        }
        case "idle":
          return Date.now() - session.lastOutputAt >= request.idleMs ? true : undefined;
        case "exit":
          if (!session.alive) {
            exitCode = session.exitStatus;
            return true;
          }
          return undefined;
      }
    },
    {
      timeoutMs: request.timeoutMs,
      // promptQuietMs: a REPL's prompt that came back is judged once it has been still that long.
      // A whole line at a prompt is decided as printed after TYPED_ELSEWHERE_SETTLE_MS of nothing more: looked at again then.
      quietMs: [...(request.for === "idle" || !session.integrated ? [request.idleMs] : []), ...(request.for === "completion" ? [config.promptQuietMs] : []), ...(request.for === "pattern" ? [TYPED_ELSEWHERE_SETTLE_MS + 10] : []), ...LIVENESS_QUIET_MS],
      onProgress: request.onProgress,
      signal: request.signal,
    },
  ).catch((error: Error) => {
    throw error instanceof CallCancelledError ? error : new ToolError(error.message, "dead");
  });

  // In a full-screen program the transcript is cursor moves and partial redraws; its screen is what to read.
  const tui = await onAlternateScreen(session);
  // A completed command's output ends where the shell reported its end: the prompt after it is not output.
  const completion = outcome === true && request.for === "completion";
  const to = completion ? lastCommandEnd(session, from) : undefined;
  // Nor is the prompt and the line typed after it (a terminal_send before this wait): the output starts at the command's.
  const outputFrom = completion ? firstCommandStart(session, from) : from;
  // A full-screen program that ran and quit since `from` drew on the alternate screen: not output.
  const rendered = tui ? renderFullscreen(session, request.maxTokens) : await renderNormalScreen(session, { from: outputFrom, to, maxTokens: request.maxTokens });
  session.readCursors.set(request.clientId, session.transcript.end);
  return {
    matched: outcome === true,
    reason: outcome === true ? request.for : "timeout",
    output: rendered.text,
    ...(match !== undefined ? { match: session.redact(match) } : {}),
    ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
    tokens: rendered.tokens,
    duration_ms: Date.now() - started,
    ...(tui ? { tui: true as const } : {}),
    ...(since && request.for === "pattern" ? { looked_since: since } : {}),
  };
}

/** Where the last command that ended after `from` ended (OSC 133 D), if the shell reported one. */
function lastCommandEnd(session: TerminalSession, from: number): number | undefined {
  const ended = session.commands.filter((r) => r.outputEnd !== null && r.outputEnd >= from);
  return ended.at(-1)?.outputEnd ?? undefined;
}

/**
 * Where the output of the first command started after `from` starts (OSC 133 C), when all
 * before it since `from` is the prompt and the typed line (no command ran or ended there).
 */
function firstCommandStart(session: TerminalSession, from: number): number {
  const first = session.commands.find((r) => r.outputStart >= from);
  if (!first) return from;
  const overlaps = session.commands.some((r) => r !== first && r.outputStart < first.outputStart && (r.outputEnd === null || r.outputEnd > from));
  return overlaps ? from : first.outputStart;
}

function failDead(session: TerminalSession): never {
  throw new ToolError(`session ${session.name} exited (status ${session.exitStatus}) before the pattern appeared`, "dead");
}
