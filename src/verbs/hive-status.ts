import { z } from "zod";
import { encodeStatusOsc, parseStatusArgs } from "../hive/rules/self-status.js";
import { AGENT_NULLABLE, name } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { SETS, defineVerb, type StoreServices } from "./verb.js";

/** The status and its detail as `termhive status` takes them (hive/rules/self-status.ts parses them). */
const statusArgs = (input: { status: string; detail?: string }) => [input.status, ...(input.detail ? [input.detail] : [])];

export default defineVerb({
  name: "hive_status",
  title: "Set an agent's status",
  description: "Record an agent's own status (starting, working, idle, waiting_for_input/waiting, error) with an optional detail; shown in its pane border.",
  input: { agent: name, status: z.string(), detail: z.string().max(500).optional() },
  family: "hive",
  annotations: SETS,
  run: (s: StoreServices, input) => s.hive().setStatus(input),
  text: (r) => `${r.agent.name}: ${r.agent.status}${r.agent.detail ? ` (${r.agent.detail})` : ""}`,
  cli: {
    command: "status",
    args: [["<status>", "starting | working | idle | waiting | error"], ["[detail...]", "what it is doing (quoting optional)"]],
    description: "set this pane's agent status: starting | working | idle | waiting | error, with an optional detail",
    options: [["--agent <name>", "agent name (default: the agent of this pane)"]],
    input: ([status, detail]: [string, string[]], o) => ({ agent: o.agent as string | undefined, status, detail: detail.length ? detail.join(" ") : undefined }),
    inPane: {
      ownAgent: "agent",
      // The status OSC: a termhive server following this pane updates its title at once (the
      // store write alone is seen by servers only when they next read it).
      tty: (input, r) => encodeStatusOsc({ ...parseStatusArgs(statusArgs(input)), agent: r.agent.name }),
      relay: (input, paneAgent) => {
        const report = parseStatusArgs(statusArgs(input));
        return {
          request: { kind: "status", args: statusArgs(input) },
          text: `${paneAgent ?? "this pane"}: ${report.status}${report.detail ? ` (${report.detail})` : ""} (handed to termhive from a sandbox)`,
          tty: encodeStatusOsc({ ...report, ...(paneAgent ? { agent: paneAgent } : {}) }),
        };
      },
    },
  },
  grpc: "HiveStatus",
  nullable: { ...under("agent", AGENT_NULLABLE) },
});
