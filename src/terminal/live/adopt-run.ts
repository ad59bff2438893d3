// A pane adopted from another termhive process (or this one before a restart): what its shared
// state and its shell's status file say it is running, taken over by the new session.
import type { Backend, PaneInfo } from "../../backends/backend.js";
import { RUN_KEY, decodeRun, remoteStatusReader, resolveRun } from "./run-state.js";
import { readStatusLine } from "./status-file.js";
import type { TerminalSession } from "../session/session.js";
import { encodeShared } from "../model/shared-codec.js";
import { ownProgramInForeground } from "./pane-place.js";
import { runLineMarked } from "./line-marks.js";

/** The integrated shell has written its status line: its integration (after the user's rc) ran. */
export async function shellStatusWritten(session: TerminalSession, backend: Backend, home: string): Promise<boolean> {
  const remote = remoteStatusReader(session, backend);
  return (remote ? await remote() : readStatusLine(home, session.id)) !== "";
}

/** What the pane's shared state (and the shell's status file) says the session is running. */
export async function adoptRecordedRun(session: TerminalSession, backend: Backend, home: string, pane: PaneInfo, atPrompt: boolean): Promise<void> {
  // Read now, not from the pane listing: a command may have started since.
  const token = await backend.shared.readShared(pane.paneId, RUN_KEY);
  const recorded = decodeRun(token);
  const remote = remoteStatusReader(session, backend);
  const run = resolveRun(recorded, remote ? await remote() : readStatusLine(home, session.id));
  if (!run) return;
  // No status line to tell its end by (a shell from before termhive wrote one): the shell in
  // the foreground is the better witness than a record nobody can confirm.
  if (run.endedAt === undefined && !run.status && atPrompt) {
    session.restoreLastExitCode(run.previousExitCode ?? null);
    return;
  }
  // The listing showed a program, yet the status line says the command ended: the pane was
  // listed just before that end (a host back from a freeze ends its commands as this process
  // reconnects), or the shell's prompt hook runs after it. Neither is a later command, which
  // termhive would have typed with its run mark set: the end counts, as it does at the prompt.
  if (run.endedAt !== undefined && !atPrompt && !(await runLineMarked(backend, home, session))) {
    const now = await backend.paneInfo(pane.paneId).catch(() => undefined);
    session.adoptedPastEnd(now !== undefined && ownProgramInForeground(now, session.meta));
  }
  session.adoptRun(run);
  // It ended while no process watched: record that, so nobody has to work it out again.
  if (recorded?.endedAt === undefined && run.endedAt !== undefined) {
    await backend.shared.writeShared(pane.paneId, RUN_KEY, encodeShared({ ...run, status: "" })).catch(() => {});
  }
}
