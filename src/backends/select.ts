// Picks the terminal backend from the configuration: tmux when asked for or available,
// node-pty otherwise, so termhive still works (without restart survival or attach) where tmux is missing.
import type { TermhiveConfig } from "../config.js";
import { requireTmuxWhenAsked, tmuxMissingMessage } from "./find-tmux.js";
import type { Backend } from "./backend.js";
import { Iterm2Backend } from "./iterm2/iterm2-backend.js";
import { PtyBackend } from "./pty/pty-backend.js";
import { TmuxBackend } from "./tmux/tmux-backend.js";
import { HostRouter } from "./remote/host-router.js";
import { DEFAULT_PANE_ENV } from "../util/pane-env.js";

type BackendConfig = Pick<TermhiveConfig, "backend" | "home" | "tmuxPath" | "historyLimit"> & Partial<Pick<TermhiveConfig, "ssh" | "allowedHosts" | "paneEnv">>;

/** The local backend, with sessions on other hosts (`host`) reached over ssh beside it. */
export function createBackend(config: BackendConfig): Backend {
  return new HostRouter(createLocalBackend(config), {
    ssh: config.ssh ?? ["ssh"],
    allowedHosts: config.allowedHosts ?? null,
    historyLimit: config.historyLimit,
    home: config.home,
  });
}

export function createLocalBackend(config: BackendConfig): Backend {
  // Throws for TERMHIVE_BACKEND=tmux without tmux; else the tmux found, or null.
  const tmuxPath = requireTmuxWhenAsked(config);
  const tmux = (path: string) => new TmuxBackend({ home: config.home, tmuxPath: path, historyLimit: config.historyLimit, paneEnv: config.paneEnv ?? DEFAULT_PANE_ENV });
  switch (config.backend) {
    case "pty":
      return new PtyBackend();
    case "iterm2":
      // Never picked by "auto": its output is rebuilt from screen contents (see its warning).
      return new Iterm2Backend({ home: config.home });
    case "tmux":
      return tmux(tmuxPath!);
    case "auto":
      // Never silently: the pty backend says in every open result that its sessions end with this process.
      return tmuxPath ? tmux(tmuxPath) : new PtyBackend({ fallbackReason: tmuxMissingMessage(config.tmuxPath) });
  }
}
