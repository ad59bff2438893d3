// The bearer token of `termhive serve`: generated once, kept 0600 in TERMHIVE_HOME, shared by
// HTTP MCP and gRPC over TCP. Its own folder, so neither door (serve/, grpc/) imports the other for it.
import { randomBytes, timingSafeEqual, createHash } from "node:crypto";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function tokenPath(home: string): string {
  return join(home, "token");
}

export function loadOrCreateToken(home: string): string {
  const path = tokenPath(home);
  if (existsSync(path)) {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    const token = readFileSync(path, "utf8").trim();
    if (token.length >= 32) return token;
  }
  const token = randomBytes(32).toString("base64url");
  writeFileSync(path, token + "\n", { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

/** Constant-time comparison (hashing first makes the lengths equal). */
export function tokenMatches(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
