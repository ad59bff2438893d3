// Making a pane in tmux: a split of an existing pane, or a window of its own in termhive's session.
import { NoSpaceForPane, type CreatePaneOptions } from "../backend.js";
import { windowTag } from "./pane-format.js";
import { tmuxQuote } from "./quote.js";

/** Makes the pane and answers tmux's reply: the new pane's id (checked by the caller). */
export async function openPane(tmux: (command: string) => Promise<string[]>, sessionName: string, options: CreatePaneOptions, quotedArgv: string): Promise<string | undefined> {
  let line: string | undefined;
  if (options.splitFrom) {
    const { paneId, direction, percent } = options.splitFrom;
    const flags = direction === "left" || direction === "right" ? "-h" : "-v";
    const before = direction === "left" || direction === "above" ? " -b" : "";
    const size = percent ? ` -l ${Math.max(1, Math.min(99, Math.round(percent)))}%` : "";
    try {
      [line] = await tmux(`split-window -d ${flags}${before}${size} -t ${tmuxQuote(paneId)} -P -F '#{pane_id}' ${quotedArgv}`);
    } catch (error) {
      if (/no space for new pane/i.test((error as Error).message)) throw new NoSpaceForPane(`window of ${paneId} is full`);
      throw error;
    }
  } else {
    // tmux runs a control client's commands in order: sent together, they cost one round trip.
    const sized = tmux(`set -g default-size ${options.cols}x${options.rows}`);
    const tag = windowTag(options.meta);
    const created = tmux(`new-window -d -n ${tag} -t ${tmuxQuote(sessionName + ":")} -P -F '#{pane_id}' ${quotedArgv}`);
    await sized;
    [line] = await created;
    if (!line?.trim()) {
      // Rarely the -P reply comes back empty; the window's unique name still finds the pane.
      const found = (await tmux(`list-panes -s -t ${tmuxQuote(sessionName + ":")} -F '#{pane_id} #{window_name}'`))
        .map((l) => l.split(" "))
        .find(([, name]) => name === tag);
      line = found?.[0];
    }
  }
  return line;
}
