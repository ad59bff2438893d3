// What a session reads from the text of a pane around a command: the echo of what was typed,
// bash's "exit" line, and where an adopted command's output lies.
import { replayTerminal } from "../../output/screen.js";

/** Length of the "exit"/"logout" line bash's `exit` printed at the end of `text` (0: none). */
export function saidExitLength(text: string): number {
  return /(?:exit|logout)\r?\n$/.exec(text)?.[0].length ?? 0;
}

export function firstLineOf(text: string): string {
  // The echo of what was typed, as it stands once drawn: a line editor's redraw (backspaces
  // over the line, then the line again, after a paste) leaves the line once.
  const rows = replayTerminal(text.split("\n", 1)[0]!);
  return rows.count > 0 ? rows.text(0).trim() : "";
}

/**
 * Where a command that ended before this process adopted its pane printed its output, in the
 * adopted history (which ends on the cursor's line, the shell's new prompt): from the line after
 * the last echo of the command's first line to the start of that prompt line. Without an echo
 * (a prompt that hides it, a history cut short) both are the prompt line's start.
 */
export function locateEndedOutput(history: string, base: number, command: string): { outputStart: number; outputEnd: number } {
  const promptLine = history.lastIndexOf("\n") + 1;
  const first = command.split("\n", 1)[0]!.trim();
  const echo = first ? history.lastIndexOf(first, promptLine - 1) : -1;
  const echoLineEnd = echo < 0 ? -1 : history.indexOf("\n", echo + first.length);
  const outputStart = echoLineEnd < 0 || echoLineEnd >= promptLine ? promptLine : echoLineEnd + 1;
  return { outputStart: base + outputStart, outputEnd: base + Math.max(outputStart, promptLine) };
}
