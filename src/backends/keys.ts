// The named-key vocabulary of terminal_send, and how each key is spelled for tmux and as bytes.
// Part of the backend contract (Backend.sendKeys), so the backends own it and terminal/ never has to.
import { tmuxQuote } from "./tmux/quote.js";

/** Keys with a fixed meaning; the tmux name and the bytes a VT-style terminal sends. */
const NAMED: Record<string, { tmux: string; bytes: string; appCursor?: string }> = {
  Up: { tmux: "Up", bytes: "\x1b[A", appCursor: "\x1bOA" },
  Down: { tmux: "Down", bytes: "\x1b[B", appCursor: "\x1bOB" },
  Right: { tmux: "Right", bytes: "\x1b[C", appCursor: "\x1bOC" },
  Left: { tmux: "Left", bytes: "\x1b[D", appCursor: "\x1bOD" },
  Home: { tmux: "Home", bytes: "\x1b[H", appCursor: "\x1bOH" },
  End: { tmux: "End", bytes: "\x1b[F", appCursor: "\x1bOF" },
  Tab: { tmux: "Tab", bytes: "\t" },
  "S-Tab": { tmux: "BTab", bytes: "\x1b[Z" },
  Escape: { tmux: "Escape", bytes: "\x1b" },
  Enter: { tmux: "Enter", bytes: "\r" },
  Space: { tmux: "Space", bytes: " " },
  Backspace: { tmux: "BSpace", bytes: "\x7f" },
  Delete: { tmux: "DC", bytes: "\x1b[3~" },
  Insert: { tmux: "IC", bytes: "\x1b[2~" },
  PageUp: { tmux: "PPage", bytes: "\x1b[5~" },
  PageDown: { tmux: "NPage", bytes: "\x1b[6~" },
  F1: { tmux: "F1", bytes: "\x1bOP" },
  F2: { tmux: "F2", bytes: "\x1bOQ" },
  F3: { tmux: "F3", bytes: "\x1bOR" },
  F4: { tmux: "F4", bytes: "\x1bOS" },
  F5: { tmux: "F5", bytes: "\x1b[15~" },
  F6: { tmux: "F6", bytes: "\x1b[17~" },
  F7: { tmux: "F7", bytes: "\x1b[18~" },
  F8: { tmux: "F8", bytes: "\x1b[19~" },
  F9: { tmux: "F9", bytes: "\x1b[20~" },
  F10: { tmux: "F10", bytes: "\x1b[21~" },
  F11: { tmux: "F11", bytes: "\x1b[23~" },
  F12: { tmux: "F12", bytes: "\x1b[24~" },
};

const ALIASES: Record<string, string> = {
  Esc: "Escape",
  Return: "Enter",
  BSpace: "Backspace",
  BTab: "S-Tab",
  DC: "Delete",
  IC: "Insert",
  PgUp: "PageUp",
  PgDn: "PageDown",
  PPage: "PageUp",
  NPage: "PageDown",
};

export interface ResolvedKey {
  /** Canonical termhive name. */
  name: string;
  /** tmux send-keys spelling (safe to put on a tmux command line unquoted). */
  tmux: string;
  /** Bytes for a backend that writes input itself; `appCursor` when the program enabled application cursor keys. */
  bytes(appCursor: boolean): string;
}

export class UnknownKeyError extends Error {
  constructor(key: string) {
    super(
      `unknown key ${JSON.stringify(key)}: use Up, Down, Left, Right, Home, End, Tab, S-Tab, Escape, Enter, Space, ` +
        `Backspace, Delete, Insert, PageUp, PageDown, F1–F12, C-a…C-z, C-\\, C-], C-@, or M-<key> (e.g. M-x, M-Enter)` +
        // "q" to quit less, "y" to answer a prompt: characters are text, not keys.
        (/^[^\x00-\x1f\x7f-]+$/.test(key) ? `; to type ${JSON.stringify(key)}, send it as text: {"text": ${JSON.stringify(key)}, "enter": false}` : ""),
    );
    this.name = "UnknownKeyError";
  }
}

/** Resolves one key name ("Up", "C-c", "M-x", "M-Enter") or throws UnknownKeyError. */
export function resolveKey(input: string): ResolvedKey {
  const key = ALIASES[input] ?? input;
  const named = NAMED[key];
  if (named) {
    return { name: key, tmux: named.tmux, bytes: (app) => (app && named.appCursor) || named.bytes };
  }
  const ctrl = /^C-(.)$/.exec(key);
  if (ctrl) {
    const ch = ctrl[1]!;
    const code = controlCode(ch);
    if (code === undefined) throw new UnknownKeyError(input);
    // Lower-case letters and a few punctuation keys are valid tmux spellings verbatim.
    const tmuxName = /[a-z]/i.test(ch) ? `C-${ch.toLowerCase()}` : `C-${ch}`;
    return { name: `C-${/[a-z]/i.test(ch) ? ch.toLowerCase() : ch}`, tmux: tmuxQuoteKey(tmuxName), bytes: () => String.fromCharCode(code) };
  }
  const meta = /^M-(.+)$/.exec(key);
  if (meta) {
    const inner = meta[1]!;
    const base = inner.length === 1 ? undefined : resolveKey(inner);
    if (inner.length === 1 && inner.charCodeAt(0) >= 0x21 && inner.charCodeAt(0) < 0x7f) {
      return { name: key, tmux: tmuxQuoteKey(`M-${inner}`), bytes: () => "\x1b" + inner };
    }
    if (base) return { name: `M-${base.name}`, tmux: `M-${base.tmux}`, bytes: (app) => "\x1b" + base.bytes(app) };
  }
  throw new UnknownKeyError(input);
}

function controlCode(ch: string): number | undefined {
  const lower = ch.toLowerCase();
  if (lower >= "a" && lower <= "z") return lower.charCodeAt(0) - 96;
  const table: Record<string, number> = { "@": 0, "[": 27, "\\": 28, "]": 29, "^": 30, _: 31, "?": 127, " ": 0 };
  return table[ch];
}

/** Quotes a key for a tmux command line when it holds characters tmux's parser treats specially. */
function tmuxQuoteKey(name: string): string {
  return /^[A-Za-z0-9-]+$/.test(name) ? name : tmuxQuote(name);
}
