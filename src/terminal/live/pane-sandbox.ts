// The sandbox a pane opens in: the local bubblewrap launch, or the one a remote host's launcher
// builds there. Undefined when the open asked for none.
import type { HostFacts } from "../../backends/backend.js";
import { sandboxLaunch, type SandboxedLaunch } from "../../sandbox/launch.js";
import { remoteSandboxLaunch } from "../../sandbox/remote-launch.js";
import type { SandboxRequest } from "../../sandbox/policy.js";

export interface PaneSandboxInput {
  asked: SandboxRequest | undefined;
  host: HostFacts | null;
  argv: string[];
  cwd: string;
  program: string;
  sessionId: string;
  shell: boolean;
  termhiveHome: string;
  /** The pane's environment before the open's own variables; `env` the open's. */
  callerEnv: Record<string, string>;
  env?: Record<string, string>;
}

export async function paneSandbox(p: PaneSandboxInput): Promise<SandboxedLaunch | undefined> {
  if (p.asked === undefined) return undefined;
  if (p.host) return remoteSandboxLaunch(p.asked, { argv: p.argv, cwd: p.cwd, sessionId: p.sessionId, shell: p.shell }, p.host);
  return sandboxLaunch(p.asked, {
    argv: p.argv, cwd: p.cwd, program: p.program, home: p.callerEnv.HOME ?? process.env.HOME ?? "/", termhiveHome: p.termhiveHome, sessionId: p.sessionId, shell: p.shell, stateHome: p.callerEnv.XDG_STATE_HOME,
    env: { ...p.callerEnv, ...p.env },
  });
}
