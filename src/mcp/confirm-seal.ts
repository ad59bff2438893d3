// The seal on a 2026 confirmation's requestState (elicit.ts): an HMAC over the refused call's
// digest and a one-time nonce, keyed by a secret of the termhive home, with a time limit.
//
// Why the home's key (TERMHIVE_HOME/confirm.key, 0600) and not one per process: a 2026
// client's retry is a new request that may reach another termhive process on the same home
// (its probe sibling over stdio, a stateless HTTP door), and it must open there; a state from
// another home (another key) must not. Why a nonce claimed in the home (confirmed/<nonce>):
// one yes runs the call once, whichever process the same requestState is resent to.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, linkSync, mkdirSync, readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";

/** How long a person's answer may take: a state older than this is refused (asked again). */
export const CONFIRM_TTL_S = 600;
const KEY_BYTES = 32;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

interface Sealed {
  /** sha256 of the refused call (callDigest). */
  d: string;
  /** One-time: claimed when the call runs. */
  n: string;
  /** The gate's reason, for the refusal of a no (the client sent the call: nothing it does not know). */
  r: string;
}

const codecs = new Map<string, RequestStateCodec<Sealed>>();

/** The home's key, made once by whichever process needs it first (linked into place: no reader sees half a key). */
function homeKey(home: string): Buffer {
  const path = join(home, "confirm.key");
  try {
    const key = readFileSync(path);
    if (key.length >= KEY_BYTES) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temp, randomBytes(KEY_BYTES), { mode: 0o600 });
  try {
    linkSync(temp, path);
  } catch (error) {
    // Another process linked its key first, or a short (damaged) key is there: replace the latter.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const there = readFileSync(path);
    if (there.length < KEY_BYTES) writeFileSync(path, readFileSync(temp), { mode: 0o600 });
  } finally {
    unlinkSync(temp);
  }
  chmodSync(path, 0o600);
  return readFileSync(path);
}

function codecOf(home: string): RequestStateCodec<Sealed> {
  let codec = codecs.get(home);
  if (!codec) codecs.set(home, (codec = createRequestStateCodec<Sealed>({ key: new Uint8Array(homeKey(home)), ttlSeconds: CONFIRM_TTL_S })));
  return codec;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]));
}

/** The call a person is asked about: the tool and every argument but confirm, key order aside. */
export function callDigest(tool: string, input: Record<string, unknown>): string {
  const { confirm: _confirm, ...rest } = input;
  return createHash("sha256").update(JSON.stringify([tool, canonical(rest)])).digest("base64url");
}

export async function mintConfirm(home: string, digest: string, reason: string): Promise<string> {
  return await codecOf(home).mint({ d: digest, n: randomBytes(16).toString("base64url"), r: reason });
}

const WHY: Record<string, string> = {
  expired: `its requestState expired (a person's answer is taken for ${CONFIRM_TTL_S / 60} minutes)`,
  mac: "its requestState was not sealed by this termhive home (altered, forged, or from another TERMHIVE_HOME)",
  malformed: "its requestState is not one termhive minted (malformed)",
};

/** The sealed facts of an echoed state, or why it is refused. */
export async function openConfirm(home: string, state: string, ctx: ServerContext): Promise<{ digest: string; nonce: string; reason: string } | { invalid: string }> {
  let sealed: Sealed;
  try {
    sealed = await codecOf(home).verify(state, ctx);
  } catch (error) {
    return { invalid: WHY[(error as Error).message] ?? WHY.malformed! };
  }
  if (typeof sealed?.d !== "string" || typeof sealed.n !== "string" || !NONCE.test(sealed.n)) return { invalid: WHY.malformed! };
  return { digest: sealed.d, nonce: sealed.n, reason: typeof sealed.r === "string" ? sealed.r : "" };
}

/** true the first time a nonce is claimed on this home; claims past the time limit are swept. */
export function claimOnce(home: string, nonce: string): boolean {
  const dir = join(home, "confirmed");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    try {
      if (now - statSync(join(dir, name)).mtimeMs > (CONFIRM_TTL_S + 60) * 1000) unlinkSync(join(dir, name));
    } catch {
      // Swept by another process meanwhile.
    }
  }
  try {
    writeFileSync(join(dir, nonce), "", { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
