// Session names are unique across every termhive process: a name is claimed in the backend's
// shared state (compare-and-set, so of two processes opening "x" at once exactly one wins)
// before any pane exists, and released when the session closes or its opening fails.
import { hostname } from "node:os";
import type { Backend } from "../../backends/backend.js";
import { ToolError } from "../../util/tool-error.js";
import { decodeShared, encodeShared, ownerAlive } from "../model/shared-codec.js";
import { traced } from "../../util/traced.js";

/**
 * A claim whose session has no pane yet counts as an opening in progress this long, while
 * the process that made it lives (creating a pane takes well under a second).
 */
const OPENING_GRACE_MS = 30_000;

interface Claim {
  id: string;
  at: number;
  host: string;
  pid: number;
  /**
   * The session's pane, set once it exists: from then on the claim lasts as long as that pane
   * (asked of the backend, which every process shares: another process may not have seen the
   * pane yet), so a pane that dies with its tmux server (a host's `kill-server`, a reboot) frees
   * the name at once instead of looking like an opening in progress for the grace.
   */
  pane?: string;
}

function keyOf(name: string): string {
  // Names are letters, digits, . _ - (validated before); shared keys are lower case only.
  return `name.${Buffer.from(name, "utf8").toString("hex")}`;
}

/**
 * Claims `name` for session `id`. `liveIds` are the sessions whose panes exist now: a claim
 * by any other id is stale once its grace has passed (a closed pane, a process killed while opening).
 */
export async function claimName(backend: Backend, name: string, id: string, liveIds: ReadonlySet<string>): Promise<() => Promise<void>> {
  const key = keyOf(name);
  const host = hostname();
  const mine = encodeShared({ id, at: Date.now(), host, pid: process.pid } satisfies Claim);
  const current = await backend.shared.readShared(null, key);
  const held = decodeShared<Claim>(current);
  if (held?.id && (liveIds.has(held.id) || (await stillHeld(backend, held, host)))) throw clash(name, held.id, liveIds.has(held.id) || held.pane !== undefined);
  const now = await backend.shared.swapShared(null, key, current, mine);
  if (now !== mine) {
    const winner = decodeShared<Claim>(now);
    throw clash(name, winner?.id ?? "another process", false);
  }
  return () => releaseName(backend, name, id);
}

/** A claim another session holds: while its pane exists, or while it is an opening in progress. */
async function stillHeld(backend: Backend, claim: Partial<Claim>, host: string): Promise<boolean> {
  // The pane's own record names its session: a pane id a restarted tmux gave to another pane is not it.
  if (claim.pane) return backend.paneInfo(claim.pane).then((info) => info !== undefined && info.meta.id === claim.id, () => true);
  return typeof claim.at === "number" && Date.now() - claim.at < OPENING_GRACE_MS && ownerAlive(claim.host, claim.pid, host);
}

/** Records session `id`'s pane (see `Claim.pane`), if the session still holds `name`. */
export async function markNameOpened(backend: Backend, name: string, id: string, pane: string): Promise<void> {
  const key = keyOf(name);
  const current = await backend.shared.readShared(null, key);
  const claim = decodeShared<Claim>(current);
  if (claim?.id === id && claim.pane === undefined) await backend.shared.swapShared(null, key, current, encodeShared({ ...claim, pane }));
}

/** Drops the claim on `name` if session `id` still holds it. */
export async function releaseName(backend: Backend, name: string, id: string): Promise<void> {
  const key = keyOf(name);
  const current = await backend.shared.readShared(null, key).catch(() => "");
  if (decodeShared<Claim>(current)?.id === id) await backend.shared.swapShared(null, key, current, "").catch(traced("releasing a session name"));
}

function clash(name: string, id: string, live: boolean): ToolError {
  const how = live ? `(${id})` : `(${id}, being opened by another termhive process)`;
  return new ToolError(`a session named ${JSON.stringify(name)} already exists ${how}; pick another name or close it first`);
}
