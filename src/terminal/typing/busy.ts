// The one refusal for a session that runs a command already, worded alike wherever it is
// found busy (the run lock across processes, or a command this process sees running).
import { ToolError } from "../../util/tool-error.js";

export function busyError(
  session: { name: string },
  what: string,
  startedAt: number | undefined,
  options: { typedBy?: string; canTypeInto?: boolean } = {},
): ToolError {
  const since = startedAt !== undefined ? ` for ${Math.round((Date.now() - startedAt) / 1000)} s` : "";
  const ref = JSON.stringify(session.name);
  const interrupt = `interrupt with terminal_send {"session":${ref},"keys":["C-c"]}`;
  return new ToolError(
    `session ${session.name} is busy: ${what} has been running${since}${options.typedBy ? ` (${options.typedBy})` : ""}. ` +
      `Wait with terminal_wait {"session":${ref},"for":"completion"}, ` +
      (options.canTypeInto ? `${interrupt}, or type into it with terminal_send.` : `or ${interrupt}.`),
    "busy",
  );
}
