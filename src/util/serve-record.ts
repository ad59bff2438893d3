// Where a running `termhive serve` can be found: <home>/serve.json, written once it listens
// and removed when it stops (dashboard/serve-record.ts writes it), so `termhive dashboard`
// reuses it instead of starting another, and a notification can link to its dashboard.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hostInUrl, isLoopbackHost } from "../auth/http-guard.js";

export interface ServeRecord {
  pid: number;
  host: string;
  port: number;
  auth: boolean;
}

export function serveRecordPath(home: string): string {
  return join(home, "serve.json");
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

/**
 * The link to an agent's "Needs you" entry on the dashboard of this home's running serve, or
 * undefined when none runs. Never with the token: a link sent off the machine (ntfy, Slack)
 * must not carry a credential; the browser signs in once with the token and keeps its cookie.
 */
export function needsYouLink(home: string, agent: string): string | undefined {
  const record = readServeRecord(home);
  if (!record) return undefined;
  return `${dashboardUrl(record.host, record.port, null, isLoopbackHost(record.host))}#needs-${encodeURIComponent(agent)}`;
}
