import { z } from "zod";
import { name } from "./schemas/hive.js";
import { RUNS, defineVerb } from "./verb.js";
import type { RestoredAgent } from "../hive/live/restore.js";

/** One line per agent: how it came back (or why it did not). */
export const restoredLine = (r: RestoredAgent) =>
  r.ok
    ? `${r.name}: ${r.resumed ? `resumed conversation ${r.conversation}` : "started fresh"} in ${r.pane} (${r.ready})${r.note ? ` · ${r.note}` : ""}${r.env_missing?.length ? ` · no value for env ${r.env_missing.join(", ")}` : ""}`
    : `${r.name}: not restored: ${r.error}`;

export default defineVerb({
  name: "agent_restore",
  title: "Bring agents back after their panes are gone",
  description:
    "After tmux was killed or the machine rebooted: start each agent whose pane is gone (or the one named) in a new pane, resuming its own conversation (Claude Code, Codex; a profile's resume command), in its folder, team and window. An agent that cannot resume starts fresh and the answer says so. env gives values for the env names it was started with (values are never stored; default: this server's environment).",
  input: {
    name: name.optional(),
    env: z.record(z.string(), z.string()).optional(),
    ready_timeout_s: z.number().min(0.1).max(600).optional(),
  },
  family: "hive",
  annotations: RUNS,
  run: (s, input, ctx) => s.hive().restore(input, ctx),
  text: (r) => (r.restored.length ? r.restored.map(restoredLine).join("\n") : "no agent's pane is gone: nothing to restore"),
  grpc: "AgentRestore",
});
