import { z } from "zod";
import { AGENT_NULLABLE, name } from "./schemas/hive.js";
import { sandboxOption } from "../sandbox/policy.js";
import { under } from "./nullable.js";
import { RUNS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "agent_spawn",
  title: "Start an agent in a new pane",
  description:
    "Start an agent (claude, codex, aider, any command) in a new pane, optionally in a new git worktree and branch; waits until it takes input.",
  input: {
    name, command: z.string().optional(), team: name.optional(), cwd: z.string().optional(), env: z.record(z.string(), z.string()).optional(), profile: name.optional(),
    worktree: z.object({ repo: z.string(), branch: z.string().min(1) }).optional(), replace: z.boolean().optional(), ready_timeout_s: z.number().min(0.1).max(600).optional(),
    host: z.string().max(512).optional().describe("ssh destination or docker://NAME."),
    // Listed by its description alone (terminal_open spells out the forms).
    sandbox: sandboxOption.meta({ "x-listed-as": {} }).optional().describe("As terminal_open's."),
    // Its refusal says when to pass it (sandbox/agent-rules.ts): listed bare.
    confirm: z.boolean().optional(),
  },
  family: "hive",
  annotations: RUNS,
  run: (s, input, ctx) => s.hive().spawn(input, ctx),
  text: (r) => `spawned ${r.agent.name} (${r.agent.profile}) ${r.ready} in ${r.ready_ms} ms, status ${r.agent.status}${r.worktree ? ` · worktree ${r.worktree.path} on ${r.worktree.branch}` : ""}${r.agent.sandbox ? ` · sandbox ${r.agent.sandbox}` : ""}${r.warning ? `\nwarning: ${r.warning}` : ""}`,
  grpc: "AgentSpawn",
  nullable: { ...under("agent", AGENT_NULLABLE), attach: true },
});
