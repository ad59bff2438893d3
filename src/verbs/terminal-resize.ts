import { cols, rows, session } from "./schemas/terminal.js";
import { defineVerb } from "./verb.js";

const resizeInput = { session, rows, cols };

export default defineVerb({
  name: "terminal_resize",
  title: "Resize a session",
  description: "Set a session's terminal size in rows and columns.",
  input: resizeInput,
  family: "terminal",
  run: (s, input) => s.terminal.resize(input),
  text: (r) => JSON.stringify(r, null, 2),
  grpc: "Resize",
});
