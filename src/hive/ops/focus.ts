// hive_focus: brings an agent's or a session's pane to the front, in tmux and in every display
// that shows panes (iTerm2 brings the pane's tab forward).
import type { Crew } from "../live/crew.js";
import { traced } from "../../util/traced.js";
import type { PaneCommands } from "./terminal-port.js";

/** What the hive's displays add to hive_focus (iTerm2 brings the pane's tab to the front). */
export interface FocusDisplay {
  focus(paneId: string): Promise<void>;
}

export async function focusPane(crew: Pick<Crew, "sync" | "hive" | "registry">, backend: Pick<PaneCommands, "focus" | "attachCommand">, displays: readonly FocusDisplay[], input: { session: string }) {
  await crew.sync();
  let ref = input.session;
  const agent = crew.hive.agents.find(ref);
  if (agent && !crew.registry.all().some((s) => s.name === ref || s.id === ref)) ref = agent.sessionId;
  const session = await crew.registry.get(ref);
  await backend.focus(session.paneId);
  // A display's focus never fails hive_focus.
  for (const d of displays) await d.focus(session.paneId).catch(traced("focusing the pane in a display"));
  return { focused: session.name, session: session.id, pane: session.paneId, attach: backend.attachCommand(session.paneId) };
}
