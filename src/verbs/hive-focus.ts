import { z } from "zod";
import { defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_focus",
  title: "Show a session to a person",
  description: "Make a session (or agent) the active pane for a person attached to tmux.",
  input: { session: z.string() },
  family: "hive",
  run: (s, input) => s.hive().focus(input),
  text: (r) => `focused ${r.focused}; watch: ${r.attach}`,
  grpc: "HiveFocus",
});
