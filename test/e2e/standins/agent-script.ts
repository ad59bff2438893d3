// What the loopback stand-ins of the model APIs answer, shared by the Anthropic Messages one
// (Claude Code) and the OpenAI Responses one (Codex). A test scripts a turn by the words of the
// user's message, so the text termhive typed is itself the script and the stand-in's record
// says exactly what the agent sent:
//   "... sleep N ..."        the answer streams after N seconds (a turn that takes N s)
//   "... run: <command> ..." the model asks to run <command> with its shell tool (an approval
//                            dialog where the agent asks first); after the tool's result, a
//                            text answer "ran <command>"
//   "... read: <path> ..."   the model asks to read the file <path> with its file-reading tool
//                            (Claude Code's Read; Codex has none: `cat <path>` with its shell
//                            tool); after the tool's result, "read <path>"
// anything else             an immediate answer "ok: <first words>".
// Requests that are not the agent's main conversation (Codex's title thread, Claude Code's
// title / quota / classifier side requests) get a short answer at once and are recorded too,
// marked `side`.

export interface ScriptedTurn {
  /** Milliseconds before the answer starts. */
  delayMs: number;
  /** The answer's text, or a tool call. */
  reply: { kind: "text"; text: string } | { kind: "tool"; command: string } | { kind: "read"; path: string };
}

/** One request as the stand-in saw it. */
export interface RecordedRequest {
  at: number;
  path: string;
  /** The newest user text in the request (after the newest tool result, if any: ""). */
  userText: string;
  /** The request carries a tool result: the agent ran a tool and reports back. */
  toolResult: boolean;
  /** A side request (title, quota, classifier), not a turn of the agent's conversation. */
  side: boolean;
  /** The text of the tool results the request carries (what the program's tool gave back), "" without. */
  toolResultText?: string;
  /** When the answer finished streaming. */
  answeredAt?: number;
  body: unknown;
}

/** Decides the answer for the newest user text (toolResult: the tool's output came back). */
export function scriptFor(userText: string, toolResult: boolean): ScriptedTurn {
  if (toolResult) {
    const ran = /run:\s*(.+?)\s*$/m.exec(userText)?.[1];
    const read = /read:\s*(\S+)/.exec(userText)?.[1];
    return { delayMs: 0, reply: { kind: "text", text: ran ? `ran ${ran}` : read ? `read ${read}` : "done" } };
  }
  const sleep = /\bsleep (\d+(?:\.\d+)?)\b/.exec(userText);
  const delayMs = sleep ? Math.round(Number(sleep[1]) * 1000) : 0;
  const run = /\brun:\s*(.+?)\s*$/m.exec(userText);
  if (run) return { delayMs, reply: { kind: "tool", command: run[1]! } };
  const read = /\bread:\s*(\S+)/.exec(userText);
  if (read) return { delayMs, reply: { kind: "read", path: read[1]! } };
  return { delayMs, reply: { kind: "text", text: `ok: ${userText.trim().split(/\s+/).slice(0, 6).join(" ")}` } };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves once `probe` finds a request; fails saying what was recorded. */
export async function waitForRequest(
  requests: () => readonly RecordedRequest[],
  probe: (r: RecordedRequest) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<RecordedRequest> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = requests().find(probe);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`the stand-in never got ${what}; it got: ${requests().map((r) => `${r.side ? "side " : ""}${r.path} ${JSON.stringify(r.userText.slice(0, 60))}${r.toolResult ? " (tool result)" : ""}`).join(" | ")}`);
    }
    await sleep(25);
  }
}
