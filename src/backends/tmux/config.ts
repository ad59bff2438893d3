// termhive's own tmux configuration: the user's ~/.tmux.conf is never read (-f points here).

export const DEATH_PREFIX = "termhive-died";
export const SIGNAL_WINDOW = "termhive-signal";
/** What a host pane's `termhive` types into the signal pane: a request waits in a tmux buffer (buffers.ts). */
export const ASK_SIGNAL = "termhive-ask/";
/** The signal pane's program: echo off and raw, so each hook line comes back exactly once. */
export const SIGNAL_PANE_ARGV = ["/bin/sh", "-c", "stty raw -echo; exec cat"];
/** Parses the lines the pane-died hook types into the signal pane. */
const DEATH_LINE = /termhive-died (%\d+) (\d*):(\d*);/g;

export interface PaneDeath {
  paneId: string;
  status: number | null;
  signal: number | null;
}

/** Reads the signal pane's output into deaths; a hook line can arrive split across two %output notifications. */
export class DeathLineReader {
  private carry = "";

  read(data: Buffer): PaneDeath[] {
    const text = this.carry + data.toString("latin1");
    const deaths: PaneDeath[] = [];
    let consumed = 0;
    for (const match of text.matchAll(DEATH_LINE)) {
      const [, paneId, status, signal] = match;
      consumed = match.index! + match[0].length;
      deaths.push({ paneId: paneId!, status: status ? Number(status) : null, signal: signal ? Number(signal) : null });
    }
    this.carry = text.slice(consumed).slice(-200);
    return deaths;
  }
}

export interface TmuxConfigOptions {
  historyLimit: number;
}

/** The config file given to a server termhive starts (-f). */
export function tmuxConfig(options: TmuxConfigOptions): string {
  return ["# Written by termhive; regenerated at every start.", ...tmuxConfigCommands(options), ""].join("\n");
}

/**
 * The same settings one command each, for a server that is already running. Not sent as
 * `source-file`: tmux answers a control client's source-file with one %begin/%end reply per
 * command in the file, all flagged as the client's own, and those extra replies would be
 * matched to whatever commands were queued next.
 */
export function tmuxConfigCommands(options: TmuxConfigOptions): string[] {
  return [
    // Dead panes stay so their exit status and last output can be read; terminal_close removes them.
    "set -g remain-on-exit on",
    `set -g history-limit ${options.historyLimit}`,
    // Escape must reach vim/less at once, not wait to become a meta prefix.
    "set -s escape-time 0",
    "set -g default-terminal screen-256color",
    "set -g set-clipboard off",
    "set -g exit-unattached off",
    "set -g destroy-unattached off",
    "set -g base-index 0",
    // Window names stay what termhive set (the signal window is found by its name).
    "set -g automatic-rename off",
    "set -g allow-rename off",
    // Where a window shows pane borders (hive layouts), the border carries the agent's status
    // (its title names it) in the status colour. tmux 3.3 reads the border styles from the
    // window, not the pane (a per-pane set rewrites them for every pane), but expands their
    // formats for each pane it draws: each border takes its own pane's @termhive_colour.
    "set -g pane-border-format ' #{?@termhive_title,#{@termhive_title},#{pane_title}} '",
    `set -g pane-border-style '#{?@termhive_colour,fg=#{@termhive_colour},default}'`,
    `set -g pane-active-border-style '#{?@termhive_colour,fg=#{@termhive_colour}#,bold,fg=green}'`,
    // tmux 3.3 tells control clients nothing when a pane's program exits. The hook types a
    // line into the signal pane (a raw, echo-less cat), whose %output every client sees at once.
    `set-hook -g pane-died "run-shell -C \\"send-keys -t #{@termhive_signal} -l '${DEATH_PREFIX} #{hook_pane} #{pane_dead_status}:#{pane_dead_signal};'\\""`,
  ];
}
