// Where a running `termhive serve` can be found: <home>/serve.json, written once it listens
// and removed when it stops, so `termhive dashboard` reuses it instead of starting another.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostInUrl } from "../auth/http-guard.js";

export interface ServeRecord {
  pid: number;
  host: string;
  port: number;
  auth: boolean;
}

export function serveRecordPath(home: string): string {
  return join(home, "serve.json");
}

export function writeServeRecord(home: string, record: ServeRecord): () => void {
  const path = serveRecordPath(home);
  writeFileSync(path, JSON.stringify(record) + "\n", { mode: 0o600 });
  return () => {
    // Only ours: a later serve on the same home may have written its own since.
    if (readServeRecord(home)?.pid === record.pid) rmSync(path, { force: true });
  };
}

/** The record of a serve process still alive, if any. */
export function readServeRecord(home: string): ServeRecord | undefined {
  let record: ServeRecord;
  try {
    record = JSON.parse(readFileSync(serveRecordPath(home), "utf8")) as ServeRecord;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(record.pid) || !Number.isInteger(record.port)) return undefined;
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return undefined;
  }
  return record;
}

/** The URL a browser opens: loopback hosts as 127.0.0.1, the token (if any) in the query. */
export function dashboardUrl(host: string, port: number, token: string | null, loopback: boolean): string {
  return `http://${loopback ? "127.0.0.1" : hostInUrl(host)}:${port}/${token === null ? "" : `?token=${encodeURIComponent(token)}`}`;
}
