// A server started by an older termhive (or another client) may hold agent identity in its
// global or session environment: what this process may not pass to a pane is removed there.
import type { ControlClient } from "./control.js";
import { passesToPane, type PaneEnvPolicy } from "../../util/pane-env.js";
import { tmuxQuote } from "./quote.js";
import { traced } from "../../util/traced.js";

export async function cleanServerEnvironment(client: ControlClient, sessionName: string, policy: PaneEnvPolicy): Promise<void> {
  const scopes = ["-g", `-t ${tmuxQuote(sessionName)}`];
  await Promise.all(scopes.map(async (scope) => {
    const lines = await client.command(`show-environment ${scope}`).catch(() => [] as string[]);
    const names = lines
      .map((l) => /^-?([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null && !passesToPane(m[1]!, policy, m[2]))
      .map((m) => m[1]!);
    await Promise.all(names.map((n) => client.command(`set-environment ${scope} -u ${n}`).catch(traced("removing a variable from tmux's environment"))));
  }));
}
