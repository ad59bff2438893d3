// terminal_open: a new session, answered once it takes input (a program) or at once (a shell,
// which every typing path waits for).
import { describePolicy } from "../../sandbox/policy.js";
import { exitedWhileOpening, waitUntilReady } from "../waits/ready.js";
import type { TerminalSession } from "../session/session.js";
import type { OpenInput } from "./inputs.js";
import { ensureRoomFor } from "./sessions.js";
import type { Terminal } from "./terminal.js";

/** How long terminal_open waits for a fresh shell's first prompt (or a program's first output). */
const OPEN_READY_MS = 10_000;
const OPEN_QUIET_MS = 150;
/**
 * A program that prints nothing when it starts (`cat`, a server waiting for input) counts as
 * ready once it has been silent this long, not after OPEN_READY_MS: there is nothing to see.
 */
const OPEN_SILENT_MS = 1_000;

/** A shell is ready at its first prompt; another program once it has printed and gone quiet. */
export async function waitOpened(session: TerminalSession): Promise<void> {
  await waitUntilReady(session, { timeoutMs: OPEN_READY_MS, quietMs: OPEN_QUIET_MS, silentMs: OPEN_SILENT_MS });
}

export async function terminalOpen(terminal: Terminal, input: OpenInput) {
  const { registry, backend } = terminal;
  await ensureRoomFor(terminal, 1);
  const session = await registry.open({ ...input, rows: input.rows ?? 40, cols: input.cols ?? 120, refreshed: true });
  // A shell becomes ready in the background, however long its rc files take: every path that
  // types into it (terminal_run, terminal_send, layouts) waits for its first prompt, in any
  // process. Another program is waited for here (only its output tells when it is ready).
  const shell = session.meta.shell !== "other";
  // A sandboxed shell is waited for too: bwrap refuses what it cannot set up only as the pane starts.
  if (!shell || session.meta.sandbox) await waitOpened(session);
  const died = session.alive ? undefined : await exitedWhileOpening(session);
  const starting = shell && session.phase === "starting" && session.alive;
  return {
    session: session.id,
    name: session.name,
    backend: backend.kind,
    ...(session.meta.host ? { host: session.meta.host } : {}),
    pid: session.pane.pid,
    alive: session.alive,
    pane: session.paneId,
    shell: session.meta.shell,
    // A shell still starting has not reported yet; it is started with integration.
    integrated: session.integrated || starting,
    ready: !starting,
    ...(starting ? { hint: "the shell is still starting (its rc files run); terminal_run and terminal_send wait for its first prompt." } : {}),
    attach: backend.attachCommand(session.paneId),
    cwd: session.cwd ?? session.pane.cwd,
    ...(session.meta.sandbox ? { sandbox: describePolicy(session.meta.sandbox) } : {}),
    ...(died || backend.warning ? { warning: [died, backend.warning].filter(Boolean).join("\n") } : {}),
  };
}
