// The service writes its hints for MCP callers (`terminal_wait {"session":"a"}`, `confirm: true`).
// A person (or agent) at the CLI should be told the command to type instead, so the CLI door
// rewrites those references on the way out. The service stays one; only the door's words change.
import { shellWord } from "../util/shell-word.js";


type Args = Record<string, unknown>;

/** `termhive <verb> …` for one MCP tool call; undefined when the tool has no CLI verb. */
function cliCall(tool: string, args: Args | undefined, session: string): string | undefined {
  const s = args?.session === undefined && session === "<session>" ? session : shellWord(args?.session ?? session);
  const a = args ?? {};
  switch (tool) {
    case "open":
      return "termhive open";
    case "list":
      return "termhive ls";
    case "close":
      return `termhive close ${s}${a.force ? " --force" : ""}`;
    case "run":
      return `termhive run ${s}${a.command !== undefined ? ` ${shellWord(a.command)}` : " <command>"}`;
    case "read": {
      const parts = [`termhive read ${s}`];
      if (a.mode !== undefined && a.mode !== "auto") parts.push(`-m ${shellWord(a.mode)}`);
      if (a.from_line !== undefined) parts.push(`--from ${shellWord(a.from_line)}`);
      if (a.to_line !== undefined) parts.push(`--to ${shellWord(a.to_line)}`);
      return parts.join(" ");
    }
    case "wait": {
      const parts = [`termhive wait ${s}`];
      if (a.for !== undefined && a.for !== "completion") parts.push(`--for ${shellWord(a.for)}`);
      if (a.pattern !== undefined) parts.push(`--pattern ${shellWord(a.pattern)}`);
      if (a.timeout_s !== undefined) parts.push(`-t ${shellWord(a.timeout_s)}`);
      return parts.join(" ");
    }
    case "send": {
      const parts = [`termhive send ${s}`];
      if (a.text !== undefined) parts.push(shellWord(a.text));
      if (Array.isArray(a.keys)) parts.push(`-k ${shellWord(a.keys.join(","))}`);
      return parts.join(" ");
    }
    default:
      return undefined;
  }
}

// `terminal_<tool>` optionally followed by its JSON arguments (flat objects: no nested braces),
// or by the older `keys ["C-c"]` shorthand.
const CALL = /\bterminal_([a-z]+)(?:(\s+)(\{[^{}]*\})|\s+keys\s+(\[[^\]]*\]))?/g;

/**
 * Rewrites MCP-speak in a hint or error for the CLI. `session` is the session the command
 * was about (used when a hint names a tool without arguments).
 */
export function cliSpeak(text: string, session = "<session>"): string {
  return text
    .replace(CALL, (whole, tool: string, _space: string | undefined, json: string | undefined, keys: string | undefined) => {
      let args: Args | undefined;
      try {
        if (json !== undefined) args = JSON.parse(json) as Args;
        else if (keys !== undefined) args = { keys: JSON.parse(keys) as unknown };
      } catch {
        return whole;
      }
      return cliCall(tool, args, session) ?? whole;
    })
    .replace(/\bconfirm: true\b/g, "--confirm")
    .replace(/\bforce: true\b/g, "--force");
}

/**
 * The same rewrite over a result's message fields (hint, note, warning) and over termhive's own
 * fold markers in its output (`… 40 lines hidden: terminal_read {…}`), never over what the
 * program itself printed.
 */
export function cliSpeakResult<T extends object>(result: T, session?: string): T {
  const out = { ...result } as Record<string, unknown>;
  for (const key of ["hint", "note", "warning"]) {
    if (typeof out[key] === "string") out[key] = cliSpeak(out[key] as string, session);
  }
  if (typeof out.output === "string") {
    out.output = (out.output as string)
      .split("\n")
      .map((line) => (/^\s*… /.test(line) ? cliSpeak(line, session) : line))
      .join("\n");
  }
  return out as T;
}
