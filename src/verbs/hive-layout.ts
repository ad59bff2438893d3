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
  profile: name.optional().describe("claude, codex, aider, shell or custom (default: by command)."),
  host: z.string().max(512).optional().describe("ssh destination (one per layout)."),
  // As agent_spawn's (the README says so): listed bare, every token of a pane spec counts.
  sandbox: sandboxOption.meta({ "x-listed-as": {} }).optional(),
  // As agent_spawn's: its refusal says when to pass it.
  confirm: z.boolean().optional(),
});

export default defineVerb({
  name: "hive_layout",
  title: "Open several panes side by side",
  description:
    "One tmux window of named panes (a person can attach), each optionally an agent in a team. save_as saves it; {restore: name} recreates it.",
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
  nullable: { attach: true, "panes[].team": (pane) => pane.agent !== undefined },
});
