import { z } from "zod";
import { name } from "./schemas/hive.js";
import { RUNS, defineVerb } from "./verb.js";
import type { RestoredAgent } from "../hive/launch/restore.js";

/** One line per agent: how it came back (or why it did not). */
export const restoredLine = (r: RestoredAgent) =>
  r.ok
    ? `${r.name}: ${r.resumed ? `resumed conversation ${r.conversation}` : (r.note ?? "started fresh")} · pane ${r.pane} ${r.ready}${r.env_missing?.length ? ` · no value for env ${r.env_missing.join(", ")}` : ""}`
    : `${r.name}: not restored: ${r.error}`;

export default defineVerb({
  name: "agent_restore",
  title: "Bring agents back after their panes are gone",
  description:
    "Bring back agents whose panes are gone (tmux or the machine restarted), resuming each one's conversation in its folder, team and window. env: values for its env names.",
  input: { name: name.optional(), env: z.record(z.string(), z.string()).optional() },
  family: "hive",
  annotations: RUNS,
  run: (s, input, ctx) => s.hive().restore(input, ctx),
  text: (r) => (r.restored.length ? r.restored.map(restoredLine).join("\n") : "no agent's pane is gone: nothing to restore"),
  grpc: "AgentRestore",
  nullable: { "restored[].conversation": true },
});
