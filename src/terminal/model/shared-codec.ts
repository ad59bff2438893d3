// Shared state values are JSON objects carried as base64url tokens: they pass a tmux command
// line and a tmux format comparison without quoting, and compare byte for byte.
import { processAlive } from "../../util/process.js";
export function encodeShared(value: object): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

/** The object in a token, or undefined for "" or anything that is not one of ours. */
export function decodeShared<T extends object>(token: string): Partial<T> | undefined {
  if (!token) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that wrote a record can still be alive: same host and its pid answers
 * signal 0 (EPERM: alive, someone else's). Another host cannot be asked, so it counts as alive
 * and only its expiry frees what it holds.
 */
export function ownerAlive(host: string | undefined, pid: number | undefined, myHost: string): boolean {
  if (host !== myHost || typeof pid !== "number") return true;
  return processAlive(pid);
}
