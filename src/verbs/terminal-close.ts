import { z } from "zod";
import { session } from "./schemas/terminal.js";
import { defineVerb } from "./verb.js";

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
  run: (s, input) => s.terminal.close(input),
  text: (r) => `closed ${r.name}${r.exit_code !== undefined ? ` (exit ${r.exit_code})` : ""}`,
  grpc: "Close",
});
