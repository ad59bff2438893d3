// The hive from inside a sandbox (issue 26). A sandboxed pane cannot reach TERMHIVE_HOME: its
// sockets and token would open an unsandboxed pane, and a bind mount of the SQLite store is not
// safe (a WAL file the host deletes and re-creates is no longer the one bound inside: writes
// lost, locks not shared). So the in-pane `termhive msg / status / hook` leave a request file in
// the pane's own relay folder <home>/relay/<session> (the one path of TERMHIVE_HOME it may write),
// and the termhive server that follows the pane's agent applies it, as that agent: a sandboxed
// agent can send and report only as itself.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/** Set in a sandboxed pane: its relay folder. The in-pane `termhive` writes requests there. */
export const RELAY_ENV = "TERMHIVE_RELAY";

export type RelayRequest =
  | { kind: "msg"; to: string; text: string }
  | { kind: "status"; args: string[] }
  | { kind: "hook"; event: string; status: string; detail: string | null; endsTurn: boolean; firedAt: number };

export function relayDir(home: string, sessionId: string): string {
  return join(home, "relay", sessionId);
}

/** Makes the pane's relay folder (owner-only) before the pane starts; bwrap binds existing paths only. */
export function makeRelayDir(home: string, sessionId: string): string {
  const dir = relayDir(home, sessionId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

let written = 0;

/** Leaves a request (written whole, then renamed: the host never reads half a file). */
export function writeRelayRequest(dir: string, request: RelayRequest): void {
  // Sorted by name = oldest first: the time, then this process's count (two in one millisecond).
  const name = `${String(Date.now()).padStart(15, "0")}-${String(++written).padStart(6, "0")}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, JSON.stringify(request), { mode: 0o600 });
  renameSync(tmp, join(dir, `${name}.json`));
}

const MAX_REQUEST_BYTES = 256 * 1024;

function parseRequest(text: string): RelayRequest | null {
  if (text.length > MAX_REQUEST_BYTES) return null;
  try {
    const r = JSON.parse(text) as Record<string, unknown>;
    if (r.kind === "msg" && typeof r.to === "string" && typeof r.text === "string") return { kind: "msg", to: r.to, text: r.text };
    if (r.kind === "status" && Array.isArray(r.args) && r.args.every((a) => typeof a === "string")) return { kind: "status", args: r.args as string[] };
    if (r.kind === "hook" && typeof r.event === "string" && typeof r.status === "string" && typeof r.firedAt === "number") {
      return { kind: "hook", event: r.event, status: r.status, detail: typeof r.detail === "string" ? r.detail : null, endsTurn: r.endsTurn === true, firedAt: r.firedAt };
    }
  } catch {
    // not JSON: dropped below
  }
  return null;
}

/**
 * The requests waiting in `dir`, oldest first, each taken by this process alone (renamed away
 * first: two servers following the same pane never apply one twice). Malformed ones are dropped.
 */
export function takeRelayRequests(dir: string): RelayRequest[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json")).sort();
  } catch {
    return [];
  }
  const out: RelayRequest[] = [];
  for (const name of names) {
    const taken = join(dir, `.${name}.${process.pid}.taken`);
    try {
      renameSync(join(dir, name), taken);
    } catch {
      continue; // another process took it
    }
    try {
      const request = parseRequest(readFileSync(taken, "utf8"));
      if (request) out.push(request);
    } finally {
      rmSync(taken, { force: true });
    }
  }
  return out;
}
