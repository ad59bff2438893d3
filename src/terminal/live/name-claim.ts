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
   * Set once the session's pane exists: from then on the claim lasts as long as the pane, so a
   * pane that dies with its tmux server (a host's `kill-server`, a reboot) frees the name at
   * once instead of looking like an opening in progress for the grace.
   */
  opened?: true;
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
  const opening = (claim: Partial<Claim>) =>
    claim.opened !== true && typeof claim.at === "number" && Date.now() - claim.at < OPENING_GRACE_MS && ownerAlive(claim.host, claim.pid, host);
  if (held?.id && (liveIds.has(held.id) || opening(held))) throw clash(name, held.id, liveIds.has(held.id));
  const now = await backend.shared.swapShared(null, key, current, mine);
  if (now !== mine) {
    const winner = decodeShared<Claim>(now);
    throw clash(name, winner?.id ?? "another process", false);
  }
  return () => releaseName(backend, name, id);
}

/** Records that session `id`'s pane exists (see `Claim.opened`), if it still holds `name`. */
export async function markNameOpened(backend: Backend, name: string, id: string): Promise<void> {
  const key = keyOf(name);
  const current = await backend.shared.readShared(null, key);
  const claim = decodeShared<Claim>(current);
  if (claim?.id === id && !claim.opened) await backend.shared.swapShared(null, key, current, encodeShared({ ...claim, opened: true }));
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
