// agent_spawn: a new session running the agent's program (with its profile's hooks, in its own
// git worktree if asked), waited for until it takes input, and bound as the agent.
import { HiveError } from "../index.js";
import type { Crew } from "../live/crew.js";
import { agentLaunch } from "../live/hook-launch.js";
import { READY_TIMEOUT_MS } from "./layout-builder.js";
import { quietForIdle, waitReady } from "./agent-ready.js";
import { recordLaunch } from "../live/launch-facts.js";
import { addWorktree, removeWorktree } from "./worktree.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import type { SandboxOption } from "../../sandbox/policy.js";
import { agentSandbox, dangerRefusal } from "../../sandbox/agent-rules.js";
import { ToolError } from "../../util/tool-error.js";
import { prepareHost } from "../../terminal/live/host-prepare.js";
import { validateName } from "../../terminal/live/session-names.js";
import { exitedAtStart } from "../../terminal/waits/ready.js";

export interface SpawnInput {
  name: string;
  command?: string;
  team?: string;
  cwd?: string;
  env?: Record<string, string>;
  profile?: string;
  worktree?: { repo: string; branch: string };
  replace?: boolean;
  ready_timeout_s?: number;
  host?: string;
  /** The sandbox it runs in (src/sandbox/); else its profile's, else TERMHIVE_SANDBOX's. */
  sandbox?: SandboxOption;
  /** Start it even with a profile's dangerous flag and no sandbox. */
  confirm?: boolean;
}

export async function spawnAgent(crew: Crew, input: SpawnInput) {
  // The agent's name is its session's name too: refused as the agent's (it said "invalid session name").
  validateName(input.name, "agent name");
  await crew.sync();
  const { hive, registry } = crew;
  if (hive.agents.find(input.name) && !input.replace) {
    throw new HiveError("duplicate", `agent '${input.name}' is already registered; pass replace: true or pick another name`);
  }
  const profile = crew.profileFor(input.profile, input.command);
  if (input.worktree && input.host) throw new HiveError("invalid", "worktree makes a local git worktree; it cannot be combined with host");
  const plain = input.command ?? (profile.command || undefined);
  const sandbox = agentSandbox(input.sandbox, profile.sandbox, crew.deps.agentSandbox ?? null);
  // Before anything exists: a refusal leaves no worktree, settings file or pane behind.
  const refusal = dangerRefusal(input.name, plain, profile.dangerousFlags, sandbox, input.confirm);
  if (refusal) throw new ToolError(refusal, "refused");
  const deadPane = nameHolder(crew, input);
  // On a host the hooks call the host's own termhive, which its set-up writes: set up first.
  const host = input.host ? await prepareHost(registry.backend, input.host) : false;
  const { command, conversationId, hooksOff } = agentLaunch(plain, profile, input.name, crew.deps.home, host, input.env ?? {});
  await crew.deps.ensureRoomFor(1);
  const cwd = input.worktree ? await addWorktree(input.worktree.repo, input.worktree.branch, input.name) : input.cwd;
  let session;
  try {
    if (deadPane) await registry.close(deadPane);
    session = await registry.open({ name: input.name, command, cwd, env: { TERMHIVE_AGENT: input.name, ...input.env }, host: input.host, rows: 40, cols: 120, ...(sandbox !== undefined ? { sandbox } : {}) });
  } catch (error) {
    // A spawn that fails leaves nothing: the retry would meet "a branch named … already exists".
    if (input.worktree && cwd) await removeWorktree(input.worktree.repo, input.worktree.branch, cwd);
    throw error;
  }
  const started = Date.now();
  const ready = await waitReady(session, profile, (input.ready_timeout_s ?? READY_TIMEOUT_MS / 1000) * 1000);
  const agent = crew.bind(session, { name: input.name, team: input.team, profile: profile.name, replace: input.replace, ready: ready === "ready" });
  // What the pane shows now is its status (a shell at its prompt is idle), not "starting".
  if (ready === "ready") {
    await quietForIdle(session, profile);
    await crew.judgeNow(session);
  }
  recordLaunch(crew, session, { agent: agent.name, profile: profile.name, command: plain, cwd, env: input.env, team: input.team, host: input.host, conversationId });
  const warnings = [
    // A program that exits at once (no network, a bad flag): why is in its last lines (trial 15: the lead had to read the screen).
    ...(ready === "exited" ? [await exitedAtStart(session, agent.name)] : []),
    ...(hooksOff ? [`${profile.name} started with ${hooksOff} runs none of its hooks: ${agent.name}'s status comes from its screen only (no exact turn starts, ends or permission requests)`] : []),
  ];
  const warning = warnings.length > 0 ? warnings.join("\n") : null;
  return { agent: hive.agents.find(agent.name) ?? agent, ready, ready_ms: Date.now() - started, cwd, session, warning };
}

/**
 * The session holding the agent's name, checked before anything is made. replace: true takes
 * the place of the agent's own exited pane (kept by tmux for its last screen): that pane is
 * returned, to be closed just before the new one opens. Any other holder is refused now.
 */
function nameHolder(crew: Crew, input: SpawnInput): TerminalSession | undefined {
  const holder = crew.registry.all().find((s) => s.name === input.name);
  if (!holder) return undefined;
  if (input.replace && !holder.alive && crew.hive.agents.find(input.name)?.sessionId === holder.id) return holder;
  const why = holder.alive ? "" : " (its program exited; replace: true takes the place of the agent's own exited pane)";
  throw new ToolError(`a session named ${JSON.stringify(input.name)} already exists (${holder.id})${why}; pick another name or close it first`);
}
