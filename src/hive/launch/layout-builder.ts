// hive_layout and hive_split: panes built into one window (all or nothing), sized, waited for
// until their programs take input, and bound as agents where the spec names them.
import { NoSpaceForPane } from "../../backends/backend.js";
import { HiveError, parseLayoutSpec, splitPlan, type AgentRecord, type LayoutKind, type PaneSpec } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { ToolError } from "../../util/tool-error.js";
import { traced } from "../../util/traced.js";
import type { Crew } from "../live/crew.js";
import { prepareHost } from "../../terminal/live/host-prepare.js";
import { agentLaunch } from "../live/hook-launch.js";
import { waitReady } from "./agent-ready.js";
import { agentSandbox, dangerRefusal } from "../../sandbox/agent-rules.js";
import type { SandboxOption } from "../../sandbox/policy.js";
import { recordLaunch } from "../live/launch-facts.js";

/** Default size of a layout window: room for four panes of useful width. */
const LAYOUT_ROWS = 50;
const LAYOUT_COLS = 200;
export const READY_TIMEOUT_MS = 30_000;

export interface LayoutInput {
  layout?: LayoutKind;
  panes?: PaneSpec[];
  count?: number;
  save_as?: string;
  restore?: string;
  replace?: boolean;
  rows?: number;
  cols?: number;
}

export interface SplitInput {
  session: string;
  direction: "left" | "right" | "above" | "below";
  name?: string;
  command?: string;
  cwd?: string;
  percent?: number;
  agent?: string;
  team?: string;
  profile?: string;
  host?: string;
  /** As agent_spawn's: its own; an agent pane's defaults to its profile's, then TERMHIVE_SANDBOX's. */
  sandbox?: SandboxOption;
  /** As agent_spawn's: start an agent pane with a profile's dangerous flag and no sandbox. */
  confirm?: boolean;
}

/** A pane that will be an agent: named by `agent`, or by its name when it has a team or profile. */
const agentOf = (p: PaneSpec) => p.agent ?? (p.team || p.profile ? p.name : undefined);

export async function buildLayout(crew: Crew, input: LayoutInput) {
  await crew.sync();
  const { hive, registry, backend } = crew;
  // A pane's own sandbox; an agent pane's defaults to its profile's, then TERMHIVE_SANDBOX's.
  const paneSandbox = (p: PaneSpec) => (agentOf(p) ? agentSandbox(p.sandbox, crew.profileFor(p.profile, p.command).sandbox, crew.deps.agentSandbox ?? null) : p.sandbox);
  const sandboxOf = (p: PaneSpec) => {
    const sandbox = paneSandbox(p);
    return sandbox !== undefined ? { sandbox } : {};
  };
  const spec = input.restore !== undefined
    ? hive.layouts.get(input.restore).spec
    : parseLayoutSpec({ kind: input.layout ?? "tiled", ...(input.panes ? { panes: input.panes } : {}), ...(input.count ? { count: input.count } : {}) });
  // Refuse taken agent names before any pane exists, so a refusal leaves nothing behind.
  for (const p of spec.panes) {
    const agent = agentOf(p);
    if (agent && !input.replace && hive.agents.find(agent)) {
      throw new HiveError("duplicate", `agent '${agent}' is already registered; pass replace: true or pick another name`);
    }
    if (p.profile) hive.profiles.get(p.profile);
    const refusal = agent ? dangerRefusal(agent, p.command, crew.profileFor(p.profile, p.command).dangerousFlags, paneSandbox(p), p.confirm, "pass confirm: true on its pane") : null;
    if (refusal) throw new ToolError(refusal, "refused");
  }
  await crew.deps.ensureRoomFor(spec.panes.length);
  if (input.save_as !== undefined) hive.layouts.save(input.save_as, spec, { replace: input.replace });
  const plan = splitPlan(spec.kind, spec.panes.length);
  const sessions: TerminalSession[] = [];
  const first = spec.panes[0]!;
  // A pane that will be an agent knows its name from the start (`termhive msg` sends as it).
  const paneEnv = (p: PaneSpec) => {
    const agent = agentOf(p);
    return agent ? { TERMHIVE_AGENT: agent, ...p.env } : p.env;
  };
  const conversations = new Map<PaneSpec, string>();
  // A layout's panes share one host: set up first, its agents' hooks call the host's own termhive.
  const hostFacts = first.host && spec.panes.some(agentOf) ? await prepareHost(registry.backend, first.host) : false;
  const paneCommand = (p: PaneSpec) => {
    const agent = agentOf(p);
    if (!agent) return p.command;
    const on = p.host ?? first.host;
    const launch = agentLaunch(p.command, crew.profileFor(p.profile, p.command), agent, crew.deps.home, on === undefined ? false : on === first.host ? hostFacts || true : true);
    if (launch.conversationId) conversations.set(p, launch.conversationId);
    return launch.command;
  };
  sessions.push(await registry.open({ name: first.name, command: paneCommand(first), cwd: first.cwd, env: paneEnv(first), host: first.host, rows: input.rows ?? LAYOUT_ROWS, cols: input.cols ?? LAYOUT_COLS, ...sandboxOf(first) }));
  try {
    for (const step of plan.steps) {
      const p = spec.panes[step.creates]!;
      const open = () => registry.open({
        name: p.name, command: paneCommand(p), cwd: p.cwd, env: paneEnv(p), host: p.host, rows: 0, cols: 0, ...sandboxOf(p),
        splitFrom: { session: sessions[step.splitFrom]!, direction: step.direction, percent: step.percent },
      });
      try {
        sessions.push(await open());
      } catch (error) {
        // Many panes: halving the newest pane runs out of rows/columns; even out the window
        // (pane order is kept) and split again.
        if (!(error instanceof NoSpaceForPane)) throw error;
        await backend.windows?.arrangeWindow(sessions[0]!.paneId, plan.selectLayout ?? "tiled");
        sessions.push(await open());
      }
    }
  } catch (error) {
    // All or nothing: a half-built layout would leave panes nobody asked for.
    for (const s of sessions) await registry.close(s).catch(traced(`closing pane ${s.name} of a failed layout`));
    throw new ToolError(`layout ${spec.kind} of ${spec.panes.length} panes failed after ${sessions.length}: ${(error as Error).message}${/no space/.test((error as Error).message) ? "; give a bigger window (rows/cols) or fewer panes" : ""}`);
  }
  if (plan.selectLayout) await backend.windows?.arrangeWindow(sessions[0]!.paneId, plan.selectLayout);
  await backend.windows?.showPaneBorders(sessions[0]!.paneId);
  await syncSizes(crew, sessions);
  const panes = await Promise.all(spec.panes.map(async (p, i) => {
    const session = sessions[i]!;
    const agentName = agentOf(p);
    const profile = crew.profileFor(p.profile, p.command);
    const ready = await waitReady(session, agentName ? profile : undefined, READY_TIMEOUT_MS);
    let agent: AgentRecord | undefined;
    if (agentName) {
      agent = crew.bind(session, { name: agentName, team: p.team, profile: profile.name, replace: input.replace, ready: ready === "ready" });
      recordLaunch(crew, session, { agent: agentName, profile: profile.name, command: p.command, cwd: p.cwd, env: p.env, team: p.team, host: p.host ?? first.host, conversationId: conversations.get(p) ?? null, layout: spec.kind, paneIndex: i });
    }
    return { index: i, session: session.id, name: session.name, pane: session.paneId, rows: session.pane.rows, cols: session.pane.cols, ready, ...(agent ? { agent: agent.name, team: agent.team, profile: agent.profile } : {}) };
  }));
  return {
    layout: spec.kind,
    window: sessions[0]!.pane.windowId,
    panes,
    attach: backend.attachCommand(sessions[0]!.paneId),
    ...(input.save_as !== undefined ? { saved_as: input.save_as } : {}),
    ...(input.restore !== undefined ? { restored: input.restore } : {}),
  };
}

export async function splitPane(crew: Crew, input: SplitInput) {
  await crew.sync();
  const { hive, registry } = crew;
  const from = await registry.get(input.session);
  if (input.agent && hive.agents.find(input.agent)) throw new HiveError("duplicate", `agent '${input.agent}' is already registered`);
  const profile = crew.profileFor(input.profile, input.command);
  // The same sandbox and refusal as agent_spawn's, before anything opens.
  const sandbox = input.agent ? agentSandbox(input.sandbox, profile.sandbox, crew.deps.agentSandbox ?? null) : input.sandbox;
  const refusal = input.agent ? dangerRefusal(input.agent, input.command, profile.dangerousFlags, sandbox, input.confirm) : null;
  if (refusal) throw new ToolError(refusal, "refused");
  await crew.deps.ensureRoomFor(1);
  const splitHost = input.host ?? from.meta.host;
  const hostFacts = input.agent && splitHost ? await prepareHost(registry.backend, splitHost) : false;
  const launch = input.agent ? agentLaunch(input.command, profile, input.agent, crew.deps.home, hostFacts) : { command: input.command, conversationId: null };
  const session = await registry.open({
    name: input.name, command: launch.command, cwd: input.cwd, env: input.agent ? { TERMHIVE_AGENT: input.agent } : undefined, host: input.host, rows: 0, cols: 0,
    splitFrom: { session: from, direction: input.direction, percent: input.percent }, ...(sandbox !== undefined ? { sandbox } : {}),
  });
  await syncSizes(crew, [from, session]);
  const ready = await waitReady(session, input.agent ? profile : undefined, READY_TIMEOUT_MS);
  const agent = input.agent ? crew.bind(session, { name: input.agent, team: input.team, profile: profile.name, ready: ready === "ready" }) : undefined;
  if (agent) recordLaunch(crew, session, { agent: agent.name, profile: profile.name, command: input.command, cwd: input.cwd, env: undefined, team: input.team, host: input.host ?? from.meta.host, conversationId: launch.conversationId });
  return { session: session.id, name: session.name, pane: session.paneId, split_from: from.name, direction: input.direction, ready, ...(agent ? { agent: agent.name } : {}) };
}

/** After splits and select-layout the panes have new sizes; the virtual screens must follow. */
export async function syncSizes(crew: Crew, sessions: TerminalSession[]): Promise<void> {
  await Promise.all(sessions.map(async (s) => {
    const info = await crew.backend.paneInfo(s.paneId);
    if (!info) return;
    if (info.rows !== s.screen.rows || info.cols !== s.screen.cols) s.screen.resize(info.rows, info.cols);
    s.updatePane(info);
  }));
}
