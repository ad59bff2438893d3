import { z } from "zod";
import { SETS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_focus",
  title: "Show a session to a person",
  description: "Make a session (or agent) the active pane for a person attached to tmux.",
  input: { session: z.string() },
  family: "hive",
  annotations: SETS,
  run: (s, input) => s.hive().focus(input),
  structured: { schema: { focused: z.string(), attach: z.string().nullable() }, of: (r) => ({ focused: r.focused, attach: r.attach ?? null }) },
  text: (r) => `focused ${r.focused}; watch: ${r.attach}`,
  grpc: "HiveFocus",
  nullable: { attach: true },
});
