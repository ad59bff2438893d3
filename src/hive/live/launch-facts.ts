// What agent_spawn, hive_layout, hive_split and agent_register keep of each agent's start, so
// agent_restore can bring it back (restore.ts): the record itself is hive/store/launches.ts.
import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import type { AgentProfile, ConversationSource } from "../index.js";
import { keptEnv } from "../store/launches.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { traced } from "../../util/traced.js";
import type { Crew } from "./crew.js";

const program = (command: string) => basename(command.trim().split(/\s+/)[0] ?? "");

/** The command runs the profile's own program (a `bash` started under the claude profile is not Claude Code). */
export function runsProfileProgram(command: string | undefined, profile: AgentProfile): command is string {
  return !!command?.trim() && !!profile.command.trim() && program(command) === program(profile.command);
}

/**
 * The command that starts a new conversation with an id termhive chooses (profile
 * `resume.newId`, e.g. `claude --session-id <uuid>`), and that id; the command unchanged and
 * no id when the profile cannot choose one (Codex: its notify reports the id after a turn).
 */
export function startConversation(command: string | undefined, profile: AgentProfile): { command: string | undefined; id: string | null } {
  const template = profile.resume?.newId;
  if (!template || !runsProfileProgram(command, profile)) return { command, id: null };
  const id = randomUUID();
  return { command: template.replaceAll("{command}", command).replaceAll("{id}", id), id };
}

export interface LaunchFacts {
  agent: string;
  profile: string;
  /** The command as given (before the chosen id and the hook arguments). */
  command: string | undefined;
  cwd: string | undefined;
  env: Record<string, string> | undefined;
  team: string | null | undefined;
  host: string | undefined;
  conversationId: string | null;
  /** Who gave the id (default: termhive chose it). */
  conversationBy?: ConversationSource | null;
  layout?: string;
  paneIndex?: number;
}

/** Records how `session` was started as agent `facts.agent` (env names, and the values of KEPT_ENV names). Never fails the start it follows. */
export function recordLaunch(crew: Crew, session: TerminalSession, facts: LaunchFacts): void {
  try {
    crew.hive.launches.record({
      agent: facts.agent,
      profile: facts.profile,
      command: facts.command?.trim() ? facts.command : null,
      cwd: facts.cwd ?? (session.pane.cwd || null),
      envNames: Object.keys(facts.env ?? {}),
      envKept: keptEnv(facts.env),
      team: facts.team ?? null,
      host: facts.host ?? null,
      rows: session.pane.rows,
      cols: session.pane.cols,
      window: session.pane.windowId,
      paneIndex: facts.paneIndex ?? null,
      layout: facts.layout ?? null,
      sandbox: session.meta.sandbox ?? null,
      conversationId: facts.conversationId,
      conversationBy: facts.conversationId ? (facts.conversationBy ?? "chosen") : null,
    });
  } catch (error) {
    // A locked store: the agent runs; only its restore will start it fresh.
    traced("recording an agent's launch for agent_restore")(error);
  }
}
