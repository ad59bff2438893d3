import { z } from "zod";
import { cols, rows, session } from "./schemas/terminal.js";
import { SETS, defineVerb } from "./verb.js";

const resizeInput = { session, rows, cols };

export default defineVerb({
  name: "terminal_resize",
  title: "Resize a session",
  description: "Set a session's terminal size in rows and columns.",
  input: resizeInput,
  family: "terminal",
  annotations: SETS,
  run: (s, input) => s.terminal.resize(input),
  structured: { schema: { session: z.string(), rows: z.number().int(), cols: z.number().int() }, of: (r) => ({ ...r }) },
  text: (r) => `resized ${r.session} to ${r.rows} rows × ${r.cols} cols`,
  grpc: "Resize",
});
