// The pane a caller runs in, as its own environment names it (termhive sets TERMHIVE_SESSION,
// TERMHIVE_SESSION_NAME and, for an agent, TERMHIVE_AGENT in every pane it opens). Only a door
// that runs in the caller's own process (stdio MCP, the CLI) can read it; it is what the caller
// says of itself, for the audit log, not a proof.

/** "<name> (<session id>), agent <agent>", or undefined outside termhive's panes. */
export function callerPane(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const id = env.TERMHIVE_SESSION;
  if (!id) return undefined;
  const name = env.TERMHIVE_SESSION_NAME;
  const agent = env.TERMHIVE_AGENT;
  return `${name ? `${name} (${id})` : id}${agent ? `, agent ${agent}` : ""}`.slice(0, 200);
}
