// agent_restore / `termhive restore`: agents whose pane is gone (tmux killed, a
// reboot) come back in new panes, each resuming its program's own conversation where the
// profile knows how (`claude --resume <id>`, `codex resume <id>`, profile `resume`), in its
// folder, team, window and size, from what launch-facts.ts kept at its start. An agent whose
// program cannot resume (no resume template, no id recorded, or the program refused the id)
// starts fresh and the answer says so.
import { HiveError, fillResumeTemplate, splitPlan, type AgentProfile, type LaunchRecord, type LayoutKind, LAYOUT_KINDS } from "../index.js";
import type { WindowLayout } from "../../backends/backend.js";
import { TmuxGoneError } from "../../backends/tmux/control.js";
import { parseStoredPolicy, type SandboxPolicy } from "../../sandbox/policy.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { traced } from "../../util/traced.js";
import type { Crew } from "../live/crew.js";
import { commandWithHooks } from "../live/hook-launch.js";
import { READY_TIMEOUT_MS, syncSizes } from "./layout-builder.js";
import { waitReady } from "./agent-ready.js";
import { exitsWithin } from "../../terminal/waits/watch.js";
import { recordLaunch, runsProfileProgram, startConversation } from "../live/launch-facts.js";
import { keptEnv } from "../store/launches.js";

/** How long a resumed program must stay up after it looks ready for its resume to count. */
const RESUME_SETTLE_MS = 3_000;

export interface RestoreInput {
  /** One agent; absent: every agent whose pane is gone. */
  name?: string;
  /** Values for the env names the agents were started with (values are never stored). */
  env?: Record<string, string>;
}

export interface RestoredAgent {
  name: string;
  ok: boolean;
  /** The program was started resuming its earlier conversation. */
  resumed: boolean;
  /** The conversation id it runs now (resumed, or the new one termhive chose), if known. */
  conversation: string | null;
  session?: string;
  pane?: string;
  ready?: string;
  /** Why it started fresh, or what else the caller should know. */
  note?: string;
  /** Env names it was started with that had no value now (neither `env` nor this process's environment). */
  env_missing?: string[];
  error?: string;
}

/** Window size for agents that shared a window (the hive_layout default). */
const GROUP_ROWS = 50;
const GROUP_COLS = 200;

interface Plan {
  name: string;
  launch: LaunchRecord;
  profile: AgentProfile;
  env: Record<string, string>;
  envMissing: string[];
  command: string | undefined;
  resumed: boolean;
  conversation: string | null;
  note?: string;
}

/**
 * The policy the session meta carried, granted again as it was: a preset is not resolved anew,
 * since the folder the pane is in now (it may have cd'd to ~) is not the folder it was given.
 */
function grantedPolicy(policy: unknown): SandboxPolicy | undefined {
  return policy && typeof policy === "object" ? parseStoredPolicy(JSON.stringify(policy)) : undefined;
}

function plan(crew: Crew, name: string, launch: LaunchRecord, input: RestoreInput): Plan {
  const profile = crew.hive.profiles.get(launch.profile);
  const env: Record<string, string> = {};
  const envMissing: string[] = [];
  for (const key of launch.envNames) {
    // A kept value (HOME and the like: where the program keeps its conversations) comes back
    // as it was given, not as the restoring process has it; a secret comes from the caller.
    const value = input.env?.[key] ?? launch.envKept[key] ?? process.env[key];
    if (value === undefined) envMissing.push(key);
    else env[key] = value;
  }
  if (envMissing.length) {
    // Starting without them would start a program that cannot find its conversation (or its
    // API key) and dies, and a restore after it would have lost the id: ask, start nothing.
    const kept = launch.conversationId ? `; its conversation ${launch.conversationId} is kept for that restore` : "";
    throw new Error(`needs a value for env ${envMissing.join(", ")} (it was started with ${envMissing.length > 1 ? "them" : "it"}; values are never stored): give ${envMissing.length > 1 ? "them" : "it"} in env (termhive restore: --env NAME=VALUE; "" for none) or in the restoring termhive's environment. Nothing was started${kept}`);
  }
  for (const [key, value] of Object.entries(input.env ?? {})) env[key] = value;
  const base = launch.command ?? (profile.command || undefined);
  if (profile.resume && launch.conversationId && runsProfileProgram(base, profile)) {
    return { name, launch, profile, env, envMissing, command: fillResumeTemplate(profile.resume.command, { command: base, id: launch.conversationId }), resumed: true, conversation: launch.conversationId };
  }
  const why = !profile.resume
    ? `profile '${profile.name}' has no resume command`
    : !runsProfileProgram(base, profile)
      ? `its command is not the ${profile.name} program`
      : "no conversation id was recorded (the program never reported one, e.g. no turn yet)";
  return { ...fresh(name, launch, profile, env, envMissing, base), note: `cannot resume: ${why}; started fresh` };
}

function fresh(name: string, launch: LaunchRecord, profile: AgentProfile, env: Record<string, string>, envMissing: string[], base: string | undefined): Plan {
  const started = startConversation(base, profile);
  return { name, launch, profile, env, envMissing, command: started.command, resumed: false, conversation: started.id };
}

/** Which agents to restore: the one named (its pane must be gone), or all whose pane is gone. */
function candidates(crew: Crew, name: string | undefined): string[] {
  const gone = (sessionId: string) => {
    const s = crew.registry.byId(sessionId);
    return !s || !s.alive;
  };
  if (name !== undefined) {
    const agent = crew.hive.agents.get(name);
    if (!gone(agent.sessionId)) {
      const s = crew.registry.byId(agent.sessionId)!;
      throw new HiveError("duplicate", `agent '${name}' is running (session ${s.name}, pane ${s.paneId}): nothing to restore; agent_remove it or close its session first to start it again`);
    }
    return [agent.name];
  }
  return crew.hive.agents.list().filter((a) => gone(a.sessionId)).map((a) => a.name);
}

/**
 * Right after `tmux kill-server` this process may not have seen its control client end: the
 * first call answers "tmux is not running, retry". Restoring is the call made at that moment,
 * so it retries itself (the retry starts a new tmux server).
 */
async function syncAfterTmuxLoss(crew: Crew): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await crew.sync();
    } catch (error) {
      if (!(error instanceof TmuxGoneError) || attempt >= 3) throw error;
    }
  }
}

export async function restoreAgents(crew: Crew, input: RestoreInput): Promise<{ restored: RestoredAgent[]; failed: number }> {
  await syncAfterTmuxLoss(crew);
  const results = new Map<string, RestoredAgent>();
  const plans: Plan[] = [];
  for (const name of candidates(crew, input.name)) {
    const launch = crew.hive.launches.find(name);
    if (!launch) {
      results.set(name, { name, ok: false, resumed: false, conversation: null, error: "no launch record (it was registered before termhive kept them): start it again with agent_spawn" });
      continue;
    }
    try {
      plans.push(plan(crew, name, launch, input));
    } catch (error) {
      results.set(name, { name, ok: false, resumed: false, conversation: null, error: (error as Error).message });
    }
  }
  // A dead pane kept by tmux still holds its session name: free it.
  for (const p of plans) {
    const old = crew.registry.byId(crew.hive.agents.get(p.name).sessionId);
    if (old) await crew.registry.close(old).catch(traced(`closing the dead pane of ${p.name}`));
  }
  await crew.deps.ensureRoomFor(plans.length);
  const opened = await openWindows(crew, plans, results);
  const timeoutMs = READY_TIMEOUT_MS;
  await Promise.all(opened.map(async ({ plan: p, session }) => {
    try {
      let s = session;
      let ready = await waitReady(s, p.profile, timeoutMs);
      // A program can draw its ready screen before it looks up the conversation it was asked
      // to resume and exits (Claude Code under load): a resume that dies this soon was refused.
      if (ready === "ready" && p.resumed) {
        if (await exitsWithin(s, RESUME_SETTLE_MS, true)) ready = "exited";
      }
      if (ready === "exited" && p.resumed) {
        // The program refused the id (Claude Code: "No conversation found"): start it fresh.
        const said = s.screen.snapshot().lines.map((l) => l.trim()).filter(Boolean).slice(-2).join(" / ");
        await crew.registry.close(s).catch(traced(`closing ${p.name}'s refused resume`));
        const again = fresh(p.name, p.launch, p.profile, p.env, p.envMissing, p.launch.command ?? (p.profile.command || undefined));
        Object.assign(p, again, { note: `could not resume conversation ${p.conversation} (the program exited${said ? `: ${said}` : ""}); started fresh` });
        s = await open(crew, p, {});
        ready = await waitReady(s, p.profile, timeoutMs);
      }
      // A fresh start that died never held a conversation: the record keeps the one it had, so
      // a later restore (with the right env, say) can still resume it.
      const keepOld = ready === "exited" && !p.resumed && p.launch.conversationId !== null;
      if (keepOld) p.note = `${p.note ?? "started fresh"}; the fresh start exited too: conversation ${p.launch.conversationId} is kept for the next restore`;
      // The team is the one the agent is in now (team_assign since its start), not its launch's.
      const agent = crew.bind(s, { name: p.name, team: p.launch.team, keepTeam: true, profile: p.profile.name, replace: true, ready: ready === "ready" });
      recordLaunch(crew, s, {
        agent: agent.name, profile: p.profile.name, command: p.launch.command ?? undefined, cwd: p.launch.cwd ?? undefined,
        env: { ...Object.fromEntries(p.launch.envNames.map((k) => [k, ""])), ...keptEnv(p.env) }, team: agent.team, host: p.launch.host ?? undefined,
        conversationId: keepOld ? p.launch.conversationId : p.conversation, conversationBy: p.resumed || keepOld ? p.launch.conversationBy : null, layout: p.launch.layout ?? undefined, paneIndex: p.launch.paneIndex ?? undefined,
      });
      results.set(p.name, {
        name: p.name, ok: true, resumed: p.resumed, conversation: p.conversation, session: s.id, pane: s.paneId, ready,
        ...(p.note ? { note: p.note } : {}), ...(p.envMissing.length ? { env_missing: p.envMissing } : {}),
      });
    } catch (error) {
      results.set(p.name, { name: p.name, ok: false, resumed: false, conversation: null, error: (error as Error).message });
    }
  }));
  const restored = [...results.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { restored, failed: restored.filter((r) => !r.ok).length };
}

function open(crew: Crew, p: Plan, place: { rows?: number; cols?: number; splitFrom?: TerminalSession }): Promise<TerminalSession> {
  const host = p.launch.host ?? undefined;
  const command = host ? p.command : commandWithHooks(p.command, p.profile, p.name, crew.deps.home);
  const granted = grantedPolicy(p.launch.sandbox);
  return crew.registry.open({
    name: p.name, command, cwd: p.launch.cwd ?? undefined, env: { TERMHIVE_AGENT: p.name, ...p.env }, host,
    rows: place.splitFrom ? 0 : (place.rows ?? p.launch.rows ?? 40), cols: place.splitFrom ? 0 : (place.cols ?? p.launch.cols ?? 120),
    ...(place.splitFrom ? { splitFrom: { session: place.splitFrom, direction: "right" as const } } : {}),
    ...(granted ? { grantedSandbox: granted } : {}),
  });
}

/**
 * Agents that shared a window come back in one window, in their pane order, arranged as their
 * layout was; the others each in a window of their own size. A pane that fails to open is that
 * agent's error, not the others'.
 */
async function openWindows(crew: Crew, plans: Plan[], results: Map<string, RestoredAgent>): Promise<{ plan: Plan; session: TerminalSession }[]> {
  const groups = new Map<string, Plan[]>();
  for (const p of plans) {
    const key = p.launch.window && !p.launch.host ? `w:${p.launch.window}` : `a:${p.name}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(p);
  }
  const opened: { plan: Plan; session: TerminalSession }[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => (a.launch.paneIndex ?? 0) - (b.launch.paneIndex ?? 0) || a.name.localeCompare(b.name));
    let first: TerminalSession | undefined;
    for (const p of group) {
      try {
        const session = first
          ? await open(crew, p, { splitFrom: first })
          : await open(crew, p, group.length > 1 ? { rows: GROUP_ROWS, cols: GROUP_COLS } : {});
        first ??= session;
        opened.push({ plan: p, session });
      } catch (error) {
        results.set(p.name, { name: p.name, ok: false, resumed: false, conversation: null, error: (error as Error).message });
      }
    }
    const inWindow = opened.filter((o) => group.includes(o.plan));
    if (first && inWindow.length > 1) {
      const kind = group[0]!.launch.layout;
      let layout: WindowLayout | null = null;
      try {
        if (kind && (LAYOUT_KINDS as readonly string[]).includes(kind)) layout = splitPlan(kind as LayoutKind, inWindow.length).selectLayout;
      } catch {
        // fewer panes came back than the layout takes (a quad of 3): tiled
      }
      await crew.backend.windows?.arrangeWindow(first.paneId, layout ?? "tiled").catch(traced("arranging a restored window"));
      await crew.backend.windows?.showPaneBorders(first.paneId).catch(traced("pane borders of a restored window"));
      await syncSizes(crew, inWindow.map((o) => o.session));
    }
  }
  return opened;
}
