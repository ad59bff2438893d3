// A session on another host: the host is reached and set up first, or the call says why not.
import type { Backend, HostFacts } from "../../backends/backend.js";
import { HostError } from "../../backends/remote/bootstrap.js";
import { ToolError } from "../../util/tool-error.js";

/** Connects to and sets up the host, as a clear error naming it when that fails. */
export async function prepareHost(backend: Backend, host: string): Promise<HostFacts> {
  if (!backend.hosts) throw new ToolError(`the ${backend.kind} backend cannot open sessions on other hosts`, "unsupported");
  try {
    return await backend.hosts.prepareHost(host);
  } catch (error) {
    throw new ToolError(`${(error as Error).message}; nothing was opened`, error instanceof HostError ? "unavailable" : "invalid");
  }
}
