import { z } from "zod";
import { session } from "./schemas/terminal.js";
import { RUNS, defineVerb } from "./verb.js";

const sendInput = {
  session,
  text: z.string().max(64 * 1024 * 1024).optional().describe(
    "Typed literally (multi-line: one paste; control characters: use keys). A trailing newline is its Enter.",
  ),
  enter: z.boolean().default(true).describe("Press Enter after the text (default true)."),
  keys: z.array(z.string().max(32)).max(1000).optional().describe("Keys after the text (tmux names): Enter, Escape, Tab, Up, PageUp, F1, C-c, M-x…"),
  secret: z.string().max(64 * 1024).optional().describe("Password, typed with Enter; never logged or returned."),
  confirm: z.boolean().optional().describe("Send even if the safety gate flags the line Enter submits."),
};

/** "sent 12 bytes", "sent key Enter", "sent 4 bytes, then keys Escape, Enter": the keys by name. */
function sentWords(bytes: number, keys: readonly string[]): string {
  const shown = keys.length > 8 ? `${keys.slice(0, 8).join(", ")}, … (${keys.length} keys)` : keys.join(", ");
  const named = keys.length ? `${keys.length > 1 ? "keys" : "key"} ${shown}` : "";
  if (bytes === 0 && named) return `sent ${named}`;
  return `sent ${bytes} bytes${named ? `, then ${named}` : ""}`;
}

export default defineVerb({
  name: "terminal_send",
  title: "Type text or keys",
  description:
    "Type text, keys or a secret into a session without waiting: for interactive programs (vim, less, prompts). Commands go through terminal_run.",
  input: sendInput,
  family: "terminal",
  annotations: RUNS,
  run: (s, input, ctx) => s.terminal.send(input, ctx),
  text: (r) => `${sentWords(r.sent_bytes, r.key_names ?? [])}${r.replaced ? `; ${r.replaced} control characters in text were typed as visible symbols (send control keys with keys)` : ""}${r.note ? `; ${r.note}` : ""}`,
  grpc: "Send",
  cli: {
    command: "send",
    args: [["<session>", "session id or name"], ["[text...]", "text to type"]],
    description: "type text and/or named keys into a session, without waiting",
    options: [
      ["-k, --keys <keys>", "comma-separated named keys (C-c, Escape, Enter, Up, Tab, F1…), sent after the text"],
      ["--no-enter", "do not press Enter after the text"],
      ["--confirm", "send even if the safety gate flags it"],
    ],
    // test/e2e/cli-door.test.ts runs every example line below: keep them working.
    help: [
      "",
      "Examples:",
      "  termhive send dev echo hello       type `echo hello` and press Enter",
      "  termhive send dev -k C-c           press Ctrl-C (interrupt what runs)",
      "  termhive send vim -k Escape        leave vim's insert mode (keys go after any text,",
      "  termhive send vim :q                 so Escape gets its own call), then type :q Enter",
    ].join("\n"),
    input: ([session, text]: [string, string[]], o) => ({
      session,
      text: text.length ? text.join(" ") : undefined,
      keys: typeof o.keys === "string" ? o.keys.split(",").filter(Boolean) : undefined,
      enter: o.enter as boolean,
      confirm: o.confirm as boolean | undefined,
    }),
  },
});
