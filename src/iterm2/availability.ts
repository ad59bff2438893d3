// Whether iTerm2's API can be used from here, and if not, why: for `termhive doctor`.
import { iterm2Unavailable } from "./endpoint.js";

export interface Iterm2Probe {
  reachable: boolean;
  /** Where it answered, or why it cannot (e.g. "not macOS"). */
  detail: string;
}

/** Connects once (asking iTerm2 for a cookie if needed), lists its sessions, disconnects. */
export async function probeIterm2(env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<Iterm2Probe> {
  const why = iterm2Unavailable(env, platform);
  if (why) return { reachable: false, detail: why };
  try {
    const { Iterm2Client } = await import("./client.js");
    const client = await Iterm2Client.connect({ env });
    try {
      const sessions = await client.listSessions();
      const where = client.endpoint.kind === "unix" ? client.endpoint.path : client.endpoint.url;
      return { reachable: true, detail: `API at ${where} (${sessions.length} sessions open)` };
    } finally {
      client.close();
    }
  } catch (error) {
    return { reachable: false, detail: (error as Error).message };
  }
}
