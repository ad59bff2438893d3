// A TerminalSession with no pane behind it: the test plays the program by feeding the bytes a
// shell or REPL would print (OSC 133 marks included). Its backend only answers the calls a
// session makes on its own (writes go nowhere, the pane is alive until the test says otherwise).
import type { Backend, PaneInfo } from "../../../src/backends/backend.js";
import type { ShellKind } from "../../../src/shell/integration.js";
import { TerminalSession } from "../../../src/terminal/session/session.js";
import { tempFolder } from "../../temp-folder.js";

export interface FakeSession {
  session: TerminalSession;
  /** Feeds output as the pane's program would print it. */
  print(text: string): void;
  /** Bytes the session wrote to the pane (what was typed), in order. */
  typed: Buffer[];
  /** Named keys the session pressed (one list per call), in order. */
  pressed: string[][];
}

/**
 * `onPaneInfo`: runs when the session asks the backend about its pane (the liveness probe),
 * before the answer: output printed there arrives while the asker awaits, as tmux's reply can
 * come after more output under load.
 */
export function fakeSession(shell: ShellKind = "bash", options: { onPaneInfo?: () => void } = {}): FakeSession {
  const pane: PaneInfo = {
    paneId: "fake-1", windowId: "fake-w", pid: 1, dead: false, exitStatus: null, exitSignal: null,
    foreground: shell === "other" ? "python3" : shell, cwd: "/", rows: 24, cols: 80, meta: {},
  };
  const typed: Buffer[] = [];
  const pressed: string[][] = [];
  const shared = new Map<string, string>();
  const backend = {
    kind: "pty",
    paneInfo: async () => {
      options.onPaneInfo?.();
      return pane;
    },
    writeInput: async (_pane: string, data: Buffer) => void typed.push(Buffer.from(data)),
    sendKeys: async (_pane: string, keys: readonly string[]) => void pressed.push([...keys]),
    resize: async () => {},
    shared: {
      readShared: async (_pane: string, key: string) => shared.get(key) ?? "",
      writeShared: async (_pane: string, key: string, value: string) => void shared.set(key, value),
      swapShared: async (_pane: string, key: string, expected: string, next: string) => {
        if ((shared.get(key) ?? "") === expected) shared.set(key, next);
        return shared.get(key) ?? "";
      },
    },
  } as unknown as Backend;
  const session = new TerminalSession(
    { id: "s-fake", name: "fake", created: Date.now(), command: shell === "other" ? "python3" : shell, shell },
    pane,
    backend,
    { transcriptMaxChars: 1_000_000, scrollback: 1000, recordingMaxBytes: 1024 * 1024 },
    tempFolder("termhive-fake-session-"),
  );
  return { session, typed, pressed, print: (text) => session.ingest(Buffer.from(text, "utf8")) };
}

/** The marks an integrated shell prints around a command. */
export const osc = {
  promptStart: "\x1b]133;A\x07",
  input: "\x1b]133;B\x07",
  output: "\x1b]133;C\x07",
  end: (code?: number) => `\x1b]133;D${code === undefined ? "" : `;${code}`}\x07`,
  prompt: "\x1b]133;A\x07$ \x1b]133;B\x07",
};
