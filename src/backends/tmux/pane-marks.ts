// The tmux side of the hive's status at a glance: a pane's mark is the pane options
// @termhive_status and @termhive_colour, which the border styles and format read (config.ts);
// a window's summary is the window option @termhive_summary, shown by the session's
// status-right; an alert is bytes written to the tty of every person (not control-mode
// client) attached to the pane's session.
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import type { Marks, PaneMark } from "../backend.js";
import { tmuxQuote } from "./quote.js";
import { traced } from "../../util/traced.js";

type Tmux = (command: string) => Promise<string[]>;

export async function markPane(tmux: Tmux, paneId: string, mark: PaneMark | null): Promise<void> {
  const pane = tmuxQuote(paneId);
  // Pane options only: the border styles and format (config.ts) read them per pane.
  const options: [string, string][] = mark === null
    ? [["@termhive_status", ""], ["@termhive_colour", ""]]
    : [["@termhive_status", mark.name], ["@termhive_colour", mark.colour]];
  // Pipelined on the control client.
  await Promise.all(options.map(([name, value]) => tmux(value === "" ? `set -p -u -t ${pane} ${name}` : `set -p -t ${pane} ${name} ${tmuxQuote(value)}`)));
}

export function windowMarks(tmux: Tmux, windowId: string): Promise<string[]> {
  return tmux(`list-panes -t ${tmuxQuote(windowId)} -F '#{@termhive_status}'`);
}

/** Windows whose session's status line already shows the summary (per backend, this process). */
const statusLineSet = new WeakMap<Tmux, Set<string>>();

export async function showWindowSummary(tmux: Tmux, windowId: string, text: string): Promise<void> {
  const window = tmuxQuote(windowId);
  await tmux(`set -w -t ${window} @termhive_summary ${tmuxQuote(text)}`);
  const done = statusLineSet.get(tmux) ?? new Set<string>();
  statusLineSet.set(tmux, done);
  if (done.has(windowId)) return;
  const [session] = await tmux(`display-message -p -t ${window} '#{session_id}'`);
  if (!session) return;
  // Stored literally (no -F): the status line expands it for whichever window is current.
  await tmux(`set -t ${tmuxQuote(session)} status-right ${tmuxQuote("#{?@termhive_summary,#{@termhive_summary} │ ,}%H:%M")}`);
  await tmux(`set -t ${tmuxQuote(session)} status-right-length 80`);
  done.add(windowId);
}

export async function alertAttached(tmux: Tmux, paneId: string, bytes: string): Promise<void> {
  const clients = await tmux(`list-clients -t ${tmuxQuote(paneId)} -F '#{client_control_mode} #{client_tty}'`);
  await Promise.all(
    clients
      .map((line) => line.split(" "))
      .filter(([control, tty]) => control === "0" && tty?.startsWith("/dev/"))
      .map(async ([, tty]) => {
        // Non-blocking and without taking it as a controlling terminal: a stuck tty must not
        // hold the server, and the server must never adopt a person's terminal.
        const handle = await open(tty!, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK).catch(() => null);
        if (!handle) return;
        await handle.write(bytes).catch(traced("ringing an attached client"));
        await handle.close().catch(traced("closing an attached client's tty"));
      }),
  );
}

/** The marks capability of a tmux server; one on another host never rings (its terminals are not ours). */
export function tmuxMarks(tmux: Tmux, onOtherHost: boolean): Marks {
  return {
    markPane: (paneId, mark) => markPane(tmux, paneId, mark),
    windowMarks: (windowId) => windowMarks(tmux, windowId),
    showWindowSummary: (windowId, text) => showWindowSummary(tmux, windowId, text),
    // A server on another host names that host's terminals: never write to ours by their names.
    alertAttached: (paneId, bytes) => (onOtherHost ? Promise.resolve() : alertAttached(tmux, paneId, bytes)),
  };
}
