// Where notifications go and which ones: TERMHIVE_NOTIFY_URL (the simple case, read in
// src/config.ts) plus an optional <TERMHIVE_HOME>/notify.json. Parsed and validated here, once,
// so a mistake is one clear error naming the file and the field, never a silent drop later.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkHttpUrl } from "../../util/http-url.js";

export const NOTICE_KINDS = ["waiting", "error", "turn_done", "watch"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
/** What an endpoint gets when its `events` are not given: a turn ending is opt-in (it is chatty). */
export const DEFAULT_KINDS: readonly NoticeKind[] = ["waiting", "error", "watch"];

export type EndpointKind = "webhook" | "ntfy" | "desktop";

export interface QuietHours {
  /** Minutes after local midnight; quiet from `from` up to `to` (wrapping midnight when from > to). */
  from: number;
  to: number;
}

export interface NotifyEndpoint {
  kind: EndpointKind;
  /** webhook and ntfy: where to send; desktop: none. */
  url?: string;
  /** Only these agents / teams (either list matching is enough); unset: all. */
  agents?: string[];
  teams?: string[];
  events: NoticeKind[];
  quiet?: QuietHours;
}

export interface NotifyConfig {
  endpoints: NotifyEndpoint[];
  /** The same kind of notice for the same agent within this time is sent once (all processes). */
  debounceMs: number;
  /** One attempt's limit: an endpoint that never answers is given up on after this. */
  timeoutMs: number;
  /** Attempts per notice and endpoint (first try included). */
  attempts: number;
}

export const NOTIFY_FILE = "notify.json";
export const DEFAULT_DEBOUNCE_MS = 30_000;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_ATTEMPTS = 3;

export class NotifyConfigError extends Error {
  override name = "NotifyConfigError";
}

/** ntfy topic URLs take a plain-text body; recognised by host so TERMHIVE_NOTIFY_URL needs no kind. */
export function kindOfUrl(url: string): "webhook" | "ntfy" {
  const host = new URL(url).hostname;
  return host === "ntfy.sh" || host.startsWith("ntfy.") ? "ntfy" : "webhook";
}

/** A URL from the file, checked the way TERMHIVE_NOTIFY_URL's are (util/http-url.ts). */
function checkUrl(raw: string, where: string): string {
  try {
    return checkHttpUrl(raw, where);
  } catch (error) {
    throw new NotifyConfigError((error as Error).message);
  }
}

function parseClock(value: unknown, where: string): number {
  const m = typeof value === "string" ? /^(\d{1,2}):(\d{2})$/.exec(value.trim()) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) throw new NotifyConfigError(`${where}: write a local time as HH:MM, e.g. "22:00"`);
  return Number(m[1]) * 60 + Number(m[2]);
}

function stringList(value: unknown, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === "")) throw new NotifyConfigError(`${where}: write a list of names, e.g. ["alice"]`);
  return value as string[];
}

function kinds(value: unknown, where: string): NoticeKind[] {
  if (value === undefined) return [...DEFAULT_KINDS];
  const list = stringList(value, where) ?? [];
  for (const k of list) {
    if (!(NOTICE_KINDS as readonly string[]).includes(k)) throw new NotifyConfigError(`${where}: unknown event "${k}"; use ${NOTICE_KINDS.join(", ")}`);
  }
  return list as NoticeKind[];
}

function number(value: unknown, fallback: number, min: number, max: number, where: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw new NotifyConfigError(`${where}: use a whole number from ${min} to ${max}`);
  return value;
}

function endpointFrom(raw: unknown, where: string): NotifyEndpoint {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new NotifyConfigError(`${where}: write an object like {"kind": "webhook", "url": "https://…"}`);
  const e = raw as Record<string, unknown>;
  const known = ["kind", "url", "agents", "teams", "events", "quiet_hours"];
  for (const key of Object.keys(e)) if (!known.includes(key)) throw new NotifyConfigError(`${where}: unknown field "${key}"; fields are ${known.join(", ")}`);
  const kind = e.kind ?? (typeof e.url === "string" ? undefined : "desktop");
  if (kind !== undefined && kind !== "webhook" && kind !== "ntfy" && kind !== "desktop") throw new NotifyConfigError(`${where}.kind: use webhook, ntfy or desktop`);
  let url: string | undefined;
  if (kind !== "desktop") {
    if (typeof e.url !== "string") throw new NotifyConfigError(`${where}.url: a ${String(kind ?? "webhook")} endpoint needs a url`);
    url = checkUrl(e.url, `${where}.url`);
  }
  const endpoint: NotifyEndpoint = { kind: (kind as EndpointKind | undefined) ?? kindOfUrl(url!), events: kinds(e.events, `${where}.events`) };
  if (url) endpoint.url = url;
  const agents = stringList(e.agents, `${where}.agents`);
  const teams = stringList(e.teams, `${where}.teams`);
  if (agents) endpoint.agents = agents;
  if (teams) endpoint.teams = teams;
  if (e.quiet_hours !== undefined) {
    const q = e.quiet_hours as Record<string, unknown> | null;
    if (typeof q !== "object" || q === null) throw new NotifyConfigError(`${where}.quiet_hours: write {"from": "22:00", "to": "07:00"}`);
    endpoint.quiet = { from: parseClock(q.from, `${where}.quiet_hours.from`), to: parseClock(q.to, `${where}.quiet_hours.to`) };
  }
  return endpoint;
}

/** The notify.json text (already read) merged with the URLs of TERMHIVE_NOTIFY_URL. */
export function parseNotifyConfig(fileText: string | null, envUrls: readonly string[], file = NOTIFY_FILE): NotifyConfig {
  const config: NotifyConfig = {
    endpoints: envUrls.map((url) => ({ kind: kindOfUrl(url), url, events: [...DEFAULT_KINDS] })),
    debounceMs: DEFAULT_DEBOUNCE_MS,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    attempts: DEFAULT_ATTEMPTS,
  };
  if (fileText === null) return config;
  let raw: unknown;
  try {
    raw = JSON.parse(fileText);
  } catch (error) {
    throw new NotifyConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new NotifyConfigError(`${file}: write an object like {"endpoints": [...]}`);
  const o = raw as Record<string, unknown>;
  const known = ["endpoints", "debounce_s", "timeout_s", "attempts"];
  for (const key of Object.keys(o)) if (!known.includes(key)) throw new NotifyConfigError(`${file}: unknown field "${key}"; fields are ${known.join(", ")}`);
  if (o.endpoints !== undefined && !Array.isArray(o.endpoints)) throw new NotifyConfigError(`${file}.endpoints: write a list of endpoints`);
  config.endpoints.push(...((o.endpoints as unknown[] | undefined) ?? []).map((e, i) => endpointFrom(e, `${file}.endpoints[${i}]`)));
  config.debounceMs = number(o.debounce_s, DEFAULT_DEBOUNCE_MS / 1000, 0, 86_400, `${file}.debounce_s`) * 1000;
  config.timeoutMs = number(o.timeout_s, DEFAULT_TIMEOUT_MS / 1000, 1, 600, `${file}.timeout_s`) * 1000;
  config.attempts = number(o.attempts, DEFAULT_ATTEMPTS, 1, 10, `${file}.attempts`);
  return config;
}

/** Reads <home>/notify.json (if any) and merges TERMHIVE_NOTIFY_URL's URLs. */
export function loadNotifyConfig(home: string, envUrls: readonly string[]): NotifyConfig {
  const path = join(home, NOTIFY_FILE);
  return parseNotifyConfig(existsSync(path) ? readFileSync(path, "utf8") : null, envUrls, path);
}

/** True when `at` falls in the quiet hours (local time of this process). */
export function inQuietHours(quiet: QuietHours | undefined, at: Date): boolean {
  if (!quiet || quiet.from === quiet.to) return false;
  const minute = at.getHours() * 60 + at.getMinutes();
  return quiet.from < quiet.to ? minute >= quiet.from && minute < quiet.to : minute >= quiet.from || minute < quiet.to;
}

/** Whether anything asks for notifications here (the file's endpoints are checked when it is loaded). */
export function notifyConfigured(home: string, envUrls: readonly string[]): boolean {
  return envUrls.length > 0 || existsSync(join(home, NOTIFY_FILE));
}
