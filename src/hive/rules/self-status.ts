// An agent reporting its own status, two ways:
//
// 1. The command line:  termhive status working "refactoring auth"
//    args → { status: "working", detail: "refactoring auth" }. Everything after the status is
//    the detail (joined with spaces, so quoting is optional). `waiting` is short for
//    waiting_for_input. `exited` cannot be self-reported: the pane ending says that.
//
// 2. From inside the pane, with no termhive binary needed (any program can print it):
//      ESC ] 1337 ; Custom=id=termhive:<payload> BEL        (ST = ESC \ also accepted)
//    This is iTerm2's custom-event OSC; tmux passes it through in %output (capture-pane strips it).
//    <payload> is a URL-query-like list:  status=working&detail=refactoring%20auth
//      - keys and values are percent-encoded (encodeURIComponent), pairs joined by "&"
//        (";" is accepted as a separator when parsing);
//      - status (required): starting | working | idle | waiting | waiting_for_input | error
//      - detail (optional): free text, shown in the pane title, clipped to 200 characters
//      - agent  (optional): the agent name, when one pane hosts several (default: the pane's agent)
//      - v      (optional): payload version, "1"; unknown keys are ignored for forward compatibility.
//    Shell example:  printf '\e]1337;Custom=id=termhive:status=working&detail=tests\a'
import { HiveError } from "../store/errors.js";
import { clipDetail } from "../store/agents.js";

export const SETTABLE_STATUSES = ["starting", "working", "idle", "waiting_for_input", "error"] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

export interface SelfStatus {
  status: SettableStatus;
  detail: string | null;
  /** Only from the OSC form: which agent, when a pane hosts several. */
  agent?: string;
}

export const OSC_ID = "termhive";
const ALIASES: Readonly<Record<string, SettableStatus>> = { waiting: "waiting_for_input" };

function toStatus(word: string | undefined): SettableStatus {
  const w = (word ?? "").trim().toLowerCase();
  const status = ALIASES[w] ?? w;
  if (!(SETTABLE_STATUSES as readonly string[]).includes(status)) {
    throw new HiveError(
      "invalid",
      `unknown status ${JSON.stringify(word ?? "")}; use one of ${SETTABLE_STATUSES.join(", ")} (or 'waiting')` +
        (w === "exited" ? "; 'exited' is set by termhive when the pane's program ends" : ""),
    );
  }
  return status as SettableStatus;
}


/** `termhive status <status> [detail…]` → the status to record. */
export function parseStatusArgs(args: readonly string[]): SelfStatus {
  if (args.length === 0) {
    throw new HiveError("invalid", `usage: termhive status <${SETTABLE_STATUSES.join("|")}> [detail…]`);
  }
  return { status: toStatus(args[0]), detail: clipDetail(args.slice(1).join(" ")) };
}

/** The OSC sequence that reports `status` (what `termhive status` could print from a pane). */
export function encodeStatusOsc(status: SelfStatus, terminator: "bel" | "st" = "bel"): string {
  const pairs: [string, string][] = [["status", toStatus(status.status)]];
  if (status.detail) pairs.push(["detail", status.detail]);
  if (status.agent) pairs.push(["agent", status.agent]);
  const payload = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  return `\x1b]1337;Custom=id=${OSC_ID}:${payload}${terminator === "bel" ? "\x07" : "\x1b\\"}`;
}

export type ParsedStatusOsc = { ok: true; value: SelfStatus } | { ok: false; error: string };

/**
 * Parses a termhive status OSC. Accepts the whole sequence (ESC ] … BEL/ST) or the OSC body
 * ("1337;Custom=id=termhive:…"). Returns null when it is not a termhive custom event (another
 * program's OSC 1337), and `{ok: false}` — never a throw — when it is ours but malformed,
 * because it arrives from a byte stream where throwing would stop the stream.
 */
export function parseStatusOsc(input: string): ParsedStatusOsc | null {
  let body = input;
  if (body.startsWith("\x1b]")) body = body.slice(2);
  if (body.endsWith("\x07")) body = body.slice(0, -1);
  else if (body.endsWith("\x1b\\")) body = body.slice(0, -2);
  const prefix = `1337;Custom=id=${OSC_ID}:`;
  if (!body.startsWith(prefix)) return null;
  const payload = body.slice(prefix.length);
  const fields = new Map<string, string>();
  for (const pair of payload.split(/[&;]/)) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    if (eq <= 0) return { ok: false, error: `termhive OSC: malformed field '${pair}' (expected key=value)` };
    try {
      fields.set(decodeURIComponent(pair.slice(0, eq)), decodeURIComponent(pair.slice(eq + 1)));
    } catch {
      return { ok: false, error: `termhive OSC: bad percent-encoding in '${pair}'` };
    }
  }
  const v = fields.get("v");
  if (v !== undefined && v !== "1") return { ok: false, error: `termhive OSC: unsupported payload version ${v}` };
  if (!fields.has("status")) return { ok: false, error: "termhive OSC: missing status=…" };
  try {
    const value: SelfStatus = { status: toStatus(fields.get("status")), detail: clipDetail(fields.get("detail") ?? "") };
    const agent = fields.get("agent");
    if (agent) value.agent = agent;
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: `termhive OSC: ${(err as Error).message}` };
  }
}
