// The windows capability of a tmux server: layouts, the border that shows pane titles, and
// the titles themselves (a pane option the border format reads, see config.ts).
import type { Windows } from "../backend.js";
import { tmuxQuote, tmuxQuoteFormat } from "./quote.js";

export function tmuxWindows(tmux: (command: string) => Promise<string[]>): Windows {
  return {
    async arrangeWindow(paneId, layout) {
      await tmux(`select-layout -t ${tmuxQuote(paneId)} ${tmuxQuote(layout)}`);
    },
    async showPaneBorders(paneId) {
      await tmux(`set-option -w -t ${tmuxQuote(paneId)} pane-border-status top`);
    },
    async setTitle(paneId, title) {
      const clean = title.replace(/[\x00-\x1f\x7f]/g, " ").slice(0, 200);
      await tmux(`set -p -t ${tmuxQuote(paneId)} @termhive_title ${tmuxQuoteFormat(clean)}`);
    },
  };
}
