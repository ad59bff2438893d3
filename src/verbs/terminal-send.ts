import { z } from "zod";
import { session } from "./schemas/terminal.js";
import { defineVerb } from "./verb.js";

const sendInput = {
  session,
  text: z.string().max(64 * 1024 * 1024).optional().describe(
    "Text to type, literally. Multi-line text is sent as one bracketed paste. A trailing newline (\\n, \\r\\n or \\r) submits the text: it is the Enter (also with enter: false, and never a second Enter with enter: true). Other control characters (ESC, NUL, DEL, C-x…) are typed as visible symbols (␛ ␀ ␡): send control keys with keys.",
  ),
  enter: z.boolean().default(true).describe("Press Enter after the text (default true). Text ending in a newline is submitted either way."),
  keys: z.array(z.string().max(32)).max(1000).optional().describe("Named keys sent after the text: Up, Down, Left, Right, Home, End, Tab, S-Tab, Escape, Enter, Backspace, Delete, Insert, PageUp, PageDown, F1–F12, C-a…C-z, C-\\, C-], M-x."),
  secret: z.string().max(64 * 1024).optional().describe("Sensitive text (password) typed with Enter; never logged, recorded or returned."),
  confirm: z.boolean().optional().describe("Send even though the safety gate flags the line Enter would submit (this text plus what was typed there without Enter)."),
};

export default defineVerb({
  name: "terminal_send",
  title: "Type text or keys",
  description:
    "Type into a session without waiting: text (Enter pressed unless enter: false; text ending in a newline is submitted either way; multi-line text is pasted), named keys (C-c, Up, Escape, F1, M-x…), or a secret (password) that is never logged or returned. Use for interactive programs (vim, less, prompts); use terminal_run for commands.",
  input: sendInput,
  family: "terminal",
  run: (s, input, ctx) => s.terminal.send(input, ctx),
  text: (r) => `sent ${r.sent_bytes} bytes${r.keys ? ` and ${r.keys} keys` : ""}${r.replaced ? `; ${r.replaced} control characters in text were typed as visible symbols (send control keys with keys)` : ""}`,
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
