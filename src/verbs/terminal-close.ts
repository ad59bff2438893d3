import { z } from "zod";
import { session } from "./schemas/terminal.js";
import { REMOVES, defineVerb } from "./verb.js";

const closeInput = {
  session,
  force: z.boolean().optional().describe("Close even if a command is running (it is killed)."),
};

// Its CLI form (close <session> | --all) lives in cli/cleanup-verbs.ts beside reset.
export default defineVerb({
  name: "terminal_close",
  title: "Close a session",
  description: "Close a session and its pane. Refused while a command runs unless force: true.",
  input: closeInput,
  family: "terminal",
  annotations: REMOVES,
  run: (s, input) => s.terminal.close(input),
  structured: {
    schema: { closed: z.boolean(), name: z.string(), exit_code: z.number().int().nullable().optional() },
    of: (r) => ({ closed: r.closed, name: r.name, ...(r.exit_code !== undefined ? { exit_code: r.exit_code } : {}) }),
  },
  text: (r) => `closed ${r.name}${r.exit_code !== undefined ? ` (exit ${r.exit_code})` : ""}`,
  grpc: "Close",
});
