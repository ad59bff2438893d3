// terminal_run: type a command, know exactly when it finished and how, return its own output.
import type { Backend } from "../../backends/backend.js";
import type { TermhiveConfig } from "../../config.js";
import { matchNestedPrompt } from "../model/prompts.js";
import type { TerminalSession } from "../session/session.js";
import { awaitCompletion, type CompletionReason, type RunMode } from "../waits/completion.js";
import { promptRedrawn, waitUntilReady } from "../waits/ready.js";
import { CallCancelledError, exitsWithin, watchSession } from "../waits/watch.js";
import type { SafeRegex } from "../../util/regex.js";
import { busyError } from "./busy.js";
import { ToolError } from "../../util/tool-error.js";
import { fullscreenHint, renderFullscreen } from "../views/fullscreen.js";
import { pagerHint, pagerShowing } from "../waits/pager.js";
import { typeLiteral } from "./typing.js";
import type { LiteralText } from "../model/literal-text.js";
import { markRun } from "../live/line-marks.js";
// A program that drew on the alternate screen and quit within the run (vim -c q): its screens are not output.
import { renderNormalScreen } from "../views/normal-screen.js";
import { cancelInputLine, inputLineHasText } from "./prompt-line.js";
import { cancelReplInput, closeBlock, opensBlockWithoutBody, replIncompleteHint } from "./repl-block.js";
import { questionHint } from "../waits/question-wait.js";
import { pasteForPythonRepl, type PythonPaste } from "./python-paste.js";
import type { RunTyping } from "./run-deadline.js";

export type { CompletionReason } from "../waits/completion.js";

export interface RunRequest {
  /** Made literal where the call entered, the text the gate judged. */
  command: LiteralText;
  timeoutMs: number;
  until?: SafeRegex;
  maxTokens: number;
  raw?: boolean;
  reduce?: boolean;
  onProgress?: (elapsedMs: number) => void;
  signal?: AbortSignal;
  /**
   * Where the shell's pager mark is written just before the command is typed (src/shell/run-line.ts,
   * line-marks.ts `markRun`): a line termhive submits in a shell has its pager print instead of waiting.
   */
  marks?: { backend: Backend; home: string };
  /** When the call began (timeout_s counts from there, typing included); now when not given. */
  startedAt?: number;
  /** Where the typing stands, for the whole call's deadline (run-deadline.ts). */
  typing?: RunTyping;
}

export interface RunResult {
  output: string;
  exit_code: number | null;
  complete: boolean;
  reason: CompletionReason;
  /** The command (or the program it started) is still running in the session. */
  running: boolean;
  duration_ms: number;
  tokens: number;
  raw_tokens: number;
  folded_lines: number;
  reducer?: string;
  /** Which prompt a nested-prompt completion saw (python, psql, shell…). */
  prompt?: string;
  /** The session's program ended with this run (`exit 3`, an `exec`'d program that ended, a killed shell). */
  session_ended?: SessionEnd;
  hint?: string;
}

export interface SessionEnd {
  exit_status: number | null;
  signal: number | null;
}

/** How long a fresh session may take to show its first prompt before a run is typed anyway. */
const STARTUP_WAIT_MS = 10_000;

/** How long a shell that reported its last command (its exit hook) may take to end. */
const ENDING_WAIT_MS = 5_000;

/**
 * A shell whose exit hook has reported its last command is ending: nothing is typed into it.
 * Waits (bounded) for its end, so the caller answers with its exit status.
 */
export async function throwIfEnding(session: TerminalSession): Promise<void> {
  if (session.alive && session.ending) {
    await exitsWithin(session, ENDING_WAIT_MS);
  }
  if (!session.alive) throw deadError(session);
  if (session.ending) {
    // Its exit hook ran, yet the program lives on past the wait (a trap, a slow logout script).
    throw new ToolError(`session ${session.name} is ending: its shell ran its exit hook and had not exited ${ENDING_WAIT_MS / 1000} s later; nothing was typed — terminal_read shows what it does, terminal_close removes it`, "dead");
  }
}

export async function runCommand(session: TerminalSession, request: RunRequest, config: TermhiveConfig): Promise<RunResult> {
  await throwIfEnding(session);
  const mode = await chooseMode(session, config);
  // Text left on the shell's input line (a person's, an unfinished line) would be glued onto the command.
  const leftOnLine = mode === "shell" && (await inputLineHasText(session));
  request.typing?.startTyping();
  if (leftOnLine) await cancelInputLine(session);
  const started = request.startedAt ?? Date.now();
  const startOffset = session.transcript.end;
  if (mode === "shell") session.expectCommand(request.command);
  const unmark = request.marks && (await markRun(request.marks.backend, request.marks.home, session));
  try {
    return await typeAndAwait(session, request, config, mode, started, startOffset);
  } finally {
    await unmark?.();
  }
}

async function typeAndAwait(session: TerminalSession, request: RunRequest, config: TermhiveConfig, mode: Awaited<ReturnType<typeof chooseMode>>, started: number, startOffset: number): Promise<RunResult> {
  const paste = mode === "nested" && matchNestedPrompt(session.screen.cursorLinePrefix()) === "python" ? pasteForPythonRepl(request.command) : undefined;
  const typed = paste ? (paste.text as LiteralText) : request.command;
  await typeLiteral(session, typed, true);
  request.typing?.typed();

  // In a REPL started from the shell: the shell's record of that program ends when it exits.
  const outer = mode === "nested" ? session.running : undefined;
  const complete = (as: RunMode, typedLines: number, decisive = false) =>
    awaitCompletion(
      session,
      { mode: as, startOffset, outer, until: request.until, typedLines, decisive, timeoutMs: Math.max(0, request.timeoutMs - (Date.now() - started)), onProgress: request.onProgress, signal: request.signal },
      config,
    ).catch((error: Error) => {
      throw error instanceof CallCancelledError ? error : new ToolError(error.message, "dead");
    });
  const typedLines = linesSubmitted(typed);
  let completion = await complete(mode, typedLines);
  // A REPL at its continuation prompt after the last line: end the block as a person would.
  const inRepl = mode !== "shell" && completion.reason === "incomplete";
  const closed = inRepl && !opensBlockWithoutBody(request.command) && (await closeBlock(session));
  // The first look may have caught a "... " between lines still being read: the next one decides.
  if (inRepl) completion = closed ? await complete("nested", typedLines + 1, true) : await complete(mode, typedLines, true);
  const { reason, record } = completion;

  // fish keeps a rejected line in its editor; clear it so the next command is typed on an empty line.
  if (reason === "rejected" && session.meta.shell === "fish") await session.keys(["C-e", "C-u"]);
  // The shell waits for the rest of a line that cannot run: cancel it, so the shell is back at a clean prompt.
  const cancelled = reason !== "incomplete" ? undefined : inRepl ? await cancelReplInput(session) : await cancelInputLine(session);
  const fromOuter = record !== undefined && record === outer;
  const from = fromOuter ? startOffset : (record?.outputStart ?? startOffset);
  const to = reason === "osc133" && record?.outputEnd != null ? record.outputEnd : undefined;
  const rendered = reason === "incomplete" ? NOTHING_RENDERED : reason === "fullscreen" ? renderFullscreen(session, request.maxTokens) : await renderNormalScreen(session, {
    from,
    command: request.command,
    maxTokens: request.maxTokens,
    raw: request.raw,
    reduce: request.reduce,
    // Without shell integration the slice starts with the echo of the command and ends with the next prompt.
    to: reason === "rejected" ? session.lastPromptEnd : to,
    trimEchoAndPrompt: fromOuter || (!record && (reason === "nested-prompt" || reason === "idle" || reason === "rejected")),
  });
  // fish sends the D of a line that calls `exit` from fish_postexec, before its exit hook says it
  // is ending: such a line is followed by the next prompt or by the end, whichever comes.
  if (reason === "osc133" && mode === "shell" && session.meta.shell === "fish" && /\bexit\b/.test(request.command)) {
    const after = record?.outputEnd ?? startOffset;
    await watchSession(session, () => (!session.alive || session.ending || session.lastPromptEnd > after ? true : undefined), { timeoutMs: ENDING_WAIT_MS }).catch(() => undefined);
  }
  // A line that ends the shell (`exit 3`) reports its D on the way out: the end follows it.
  if (session.alive && session.ending) await exitsWithin(session, ENDING_WAIT_MS);
  const ended: SessionEnd | undefined = session.alive ? undefined : { exit_status: session.exitStatus, signal: session.exitSignal };
  const pager = reason === "fullscreen" && (await pagerShowing(session));
  const running = session.alive && (reason === "timeout" || reason === "until" || reason === "fullscreen" || reason === "waiting_for_input" || (reason === "nested-prompt" && mode === "shell"));
  return {
    output: rendered.text,
    exit_code: completion.exitCode,
    complete: reason !== "timeout",
    reason,
    running,
    duration_ms: Date.now() - started,
    tokens: rendered.tokens,
    raw_tokens: rendered.raw_tokens,
    folded_lines: rendered.folded_lines,
    reducer: rendered.reducer,
    prompt: completion.prompt,
    ...(ended ? { session_ended: ended } : {}),
    hint:
      [
        lostOutputHint(session, from),
        paste && pythonPasteNote(paste),
        inRepl && reason === "incomplete"
          ? replIncompleteHint(session, completion.prompt, closed, cancelled === true)
          : cancelled === false
            ? incompleteNotCancelledHint(session)
            : ended
              ? endedHint(ended)
              : pager
                ? pagerHint(session)
                : hintFor(reason, session, mode, completion.prompt),
      ]
        .filter(Boolean)
        .join("\n") || undefined,
  };
}

/** What a Python REPL was given instead of the text as sent (see python-paste.ts). */
function pythonPasteNote(paste: PythonPaste): string | undefined {
  const changes = [
    paste.droppedEmpty ? `${paste.droppedEmpty} empty line(s) inside indented blocks left out` : "",
    paste.addedEmpty ? `${paste.addedEmpty} empty line(s) put before top-level lines after a block` : "",
  ].filter(Boolean);
  return changes.length ? `typed as Python's interactive interpreter reads blocks (an empty line ends one there): ${changes.join("; ")}` : undefined;
}

/** Lines the command submits: one per line break in it, and the Enter typed after it. */
function linesSubmitted(command: string): number {
  return (command.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
}

/** A run whose output tmux dropped says so: its output has a hole, and its end may have been missed. */
function lostOutputHint(session: TerminalSession, from: number): string | undefined {
  const reason = session.gapSince(from);
  return reason && `part of this output was lost (${reason}); terminal_read {session: ${JSON.stringify(session.name)}, mode: "screen"} shows what the pane shows now`;
}

/** However the session's program ended, the run says so, with how. */
function endedHint(end: SessionEnd): string {
  const how = end.signal !== null ? `was killed by signal ${end.signal}` : end.exit_status !== null ? `exited with status ${end.exit_status}` : "exited (status unknown)";
  return `the session ended: its program ${how}, so it takes no more commands. Its output is still readable with terminal_read; terminal_close removes it, terminal_open starts a new one.`;
}

/** What an incomplete line returns: nothing ran, so there is no output. */
const NOTHING_RENDERED = { text: "", tokens: 0, raw_tokens: 0, folded_lines: 0, reducer: undefined };

function incompleteNotCancelledHint(session: TerminalSession): string {
  const ref = JSON.stringify(session.name);
  return `the shell needs more of this line (an unclosed quote or block, or a trailing backslash) and did not take Ctrl-C: it may still be waiting for the rest. See terminal_read {"session":${ref},"mode":"screen"}.`;
}

function hintFor(reason: CompletionReason, session: TerminalSession, mode: RunMode, prompt?: string): string | undefined {
  const ref = JSON.stringify(session.name);
  switch (reason) {
    case "timeout":
      return `still running after the timeout; it keeps running. Wait more with terminal_wait {"session":${ref},"for":"completion"}, read with terminal_read {"session":${ref}}, or interrupt with terminal_send {"session":${ref},"keys":["C-c"]}.`;
    case "until":
      return `the until pattern matched; the command may still be running (terminal_wait {"session":${ref},"for":"completion"}).`;
    case "nested-prompt":
      return mode === "shell"
        ? `the command is now waiting at a prompt; further terminal_run calls type into it.`
        : undefined;
    case "fullscreen":
      return fullscreenHint(session);
    case "waiting_for_input":
      return questionHint(session, prompt ?? "");
    case "incomplete":
      return `the shell needs more of this line to run it (an unclosed quote or block, or a trailing backslash); nothing ran. The unfinished line was cancelled (Ctrl-C), so the shell is back at a clean prompt: send the whole command in one terminal_run.`;
    case "rejected":
      return `the shell returned to its prompt without running the command (a syntax error?); nothing ran.`;
    case "exit":
      return `the session's program exited; read its output with terminal_read, remove it with terminal_close.`;
    case "idle":
      return `no shell integration or known prompt here: completion was judged by ${"quiet"} output.`;
    default:
      return undefined;
  }
}

export function deadError(session: TerminalSession): ToolError {
  // The whole server went away under a call (tmux killed): that is the answer, and a retry works.
  const serverLost = /^the (\S+) server went away(?: \((.*)\))?$/.exec(session.goneReason ?? "");
  if (serverLost) return new ToolError(`${serverLost[1]} is not running${serverLost[2] ? ` (${serverLost[2]})` : ""}; the call was not carried out — retry, termhive reconnects on the next call`, "unavailable");
  if (session.goneReason) return new ToolError(`session ${session.name} is gone: ${session.goneReason}`, "dead");
  const how = session.exitSignal !== null ? `killed by signal ${session.exitSignal}` : `exit status ${session.exitStatus}`;
  return new ToolError(
    `session ${session.name} has exited (${how}); its output is still readable with terminal_read, and terminal_close removes it`,
    "dead",
  );
}

/**
 * A shell that has not shown its first prompt yet (terminal_open returns before it does): typing
 * now would race its rc files. Waits for the prompt (bounded); throws when the shell exited.
 */
export async function waitShellStarted(session: TerminalSession, config: TermhiveConfig): Promise<void> {
  if (session.meta.shell === "other" || session.phase !== "starting") return;
  if ((await waitUntilReady(session, { timeoutMs: STARTUP_WAIT_MS, quietMs: config.promptQuietMs })) === "exited") throw deadError(session);
}

async function chooseMode(session: TerminalSession, config: TermhiveConfig): Promise<RunMode> {
  await waitShellStarted(session, config);
  await promptRedrawn(session);
  if (session.integrated && (session.phase === "prompt" || session.phase === "redrawing")) return "shell";
  await session.screen.settled();
  const prompt = matchNestedPrompt(session.screen.cursorLinePrefix());
  if (session.integrated && session.phase === "running") {
    const shown = await nestedPromptShows(session, config);
    // The command ended while this looked (a pager quit just before this run): the prompt that
    // showed is the shell's own, and the run is the shell's, ended by its marks.
    if (session.phase !== "running") return chooseMode(session, config);
    if (shown) return "nested";
    const running = session.running;
    throw busyError(session, running?.command ? `\`${running.command}\`` : "a command", running?.startedAt, { canTypeInto: true });
  }
  return prompt ? "nested" : session.integrated ? "shell" : "quiet";
}

/** How long a program that is still starting (or was just adopted) may take to show its REPL prompt. */
const NESTED_PROMPT_WAIT_MS = 3_000;

/**
 * Whether a command running in the shell is a REPL waiting at its prompt (python3, node typed
 * with terminal_send). One just started may not have drawn its prompt yet, and a process that
 * just adopted the pane counts its capture as fresh output: while the session has been active
 * in the last NESTED_PROMPT_WAIT_MS, give the prompt that long to show and go quiet. A
 * command quiet for longer without a prompt is busy at once.
 */
async function nestedPromptShows(session: TerminalSession, config: TermhiveConfig): Promise<boolean> {
  const atPrompt = async (): Promise<true | undefined> => {
    await session.screen.settled();
    const quiet = Date.now() - session.lastOutputAt >= config.promptQuietMs;
    if (session.phase !== "running") return true;
    return quiet && matchNestedPrompt(session.screen.cursorLinePrefix()) ? true : undefined;
  };
  if (await atPrompt()) return true;
  const lastActivity = Math.max(session.lastOutputAt, session.running?.startedAt ?? 0);
  if (Date.now() - lastActivity >= NESTED_PROMPT_WAIT_MS) return false;
  const shown = await watchSession(session, atPrompt, { timeoutMs: NESTED_PROMPT_WAIT_MS, quietMs: config.promptQuietMs });
  return shown === true;
}
