import { z } from "zod";
import { LAYOUT_KINDS } from "../hive/index.js";
import { name } from "./schemas/hive.js";
import { sandboxOption } from "../sandbox/policy.js";
import { WRITES, defineVerb } from "./verb.js";

const paneSpec = z.object({
  name: name.optional().describe("Session name of the pane."),
  command: z.string().optional().describe("Program to run (default: your shell)."),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  agent: name.optional().describe("Register the pane as this agent."),
  team: name.optional().describe("Team of the agent (created if missing)."),
  profile: name.optional().describe("Status profile: claude, codex, aider, shell, custom (default: by command)."),
  host: z.string().max(512).optional().describe("ssh destination (one per layout)."),
  sandbox: sandboxOption.optional().describe('Run the pane in a sandbox (as agent_spawn\'s); an agent pane defaults to its profile\'s, else TERMHIVE_SANDBOX.'),
  confirm: z.boolean().optional().describe("Start an agent pane whose command turns off its own permission checks without a sandbox."),
});

export default defineVerb({
  name: "hive_layout",
  title: "Open several panes side by side",
  description:
    "A tmux window of named panes side by side (a person can attach and watch), each optionally an agent in a team. save_as stores the arrangement; {restore: name} recreates it.",
  input: {
    layout: z.enum(LAYOUT_KINDS).optional(),
    panes: z.array(paneSpec).max(32).optional().describe("One per pane, in order (quad: TL, TR, BL, BR)."),
    count: z.number().int().min(1).max(32).optional().describe("Shell panes, without panes."),
    save_as: name.optional(), restore: name.optional(), replace: z.boolean().optional().describe("Rebind agent names / overwrite a saved layout."),
    rows: z.number().int().min(10).max(500).optional(), cols: z.number().int().min(20).max(1000).optional(),
  },
  family: "hive",
  annotations: WRITES,
  run: (s, input, ctx) => s.hive().layout(input, ctx),
  text: (r) =>
    `${r.layout} window ${r.window}: ${r.panes.map((p) => `${p.name}${p.agent ? ` (agent ${p.agent}${p.team ? `, team ${p.team}` : ""})` : ""} ${p.cols}x${p.rows} ${p.ready}`).join("; ")}\nwatch: ${r.attach}`,
  grpc: "HiveLayout",
});
