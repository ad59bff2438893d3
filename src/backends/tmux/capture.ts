// A pane's screen and history as tmux holds them (capture-pane), with the cursor and the
// alternate-screen flag, taken consistently while output may still arrive: the capture is
// retried when the cursor moved during it, and the output events it already includes are
// counted so the caller does not feed them twice.
import type { PaneSnapshot } from "../backend.js";
import type { ControlClient } from "./control.js";
import { tmuxQuote } from "./quote.js";

/** Captures of a pane whose cursor moved while it was captured, before the last one is taken as is. */
const SNAPSHOT_ATTEMPTS = 5;

export interface PaneCaptureDeps {
  cmd(command: string): Promise<string[]>;
  client: ControlClient | null;
  /** Output events received for the pane so far. */
  outputs(): number;
}

export async function capturePane(tmux: PaneCaptureDeps, paneId: string): Promise<PaneSnapshot> {
  const target = tmuxQuote(paneId);
  const before = tmux.outputs();
  const stateCommand = `display-message -p -t ${target} '#{cursor_x} #{cursor_y} #{alternate_on} #{pane_height} #{history_size}'`;
  // -J: a line tmux wrapped at the pane's width is one line, with its trailing spaces, as the
  // program wrote it — so line numbers match those of a process that saw the output live.
  const capture = `capture-pane -p -e -J -S - -E - -t ${target}`;
  for (let attempt = 1; ; attempt++) {
    const [state] = await tmux.cmd(stateCommand);
    // The output events already in the capture are those tmux sent before its reply.
    let atReply: number | undefined;
    const client = tmux.client;
    const onReply = (command: string) => {
      if (command === capture && atReply === undefined) atReply = tmux.outputs();
    };
    client?.on("reply", onReply);
    let history: string[];
    try {
      history = await tmux.cmd(capture);
    } finally {
      client?.off("reply", onReply);
    }
    // The cursor row says where the padding below it starts; output between the two
    // commands moves it, so then look again (bounded: a pane that never stops gets the last try).
    const [stateAfter] = await tmux.cmd(stateCommand);
    if (stateAfter !== state && attempt < SNAPSHOT_ATTEMPTS) continue;
    const [x, y, alt, height] = (stateAfter ?? "0 0 0 0").split(" ").map(Number) as [number, number, number, number];
    // The visible screen is padded with empty rows below the cursor; they carry no output.
    for (let below = height - 1 - y; below > 0 && history.length > 1 && history[history.length - 1] === ""; below--) history.pop();
    return {
      history: history.join("\r\n"),
      cursorCol: x,
      cursorRow: y,
      alternateScreen: alt === 1,
      outputsIncluded: (atReply ?? tmux.outputs()) - before,
    };
  }
}
