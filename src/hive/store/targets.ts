// Targets: every multi-session operation names its sessions the same way, and this file turns
// that into one de-duplicated, ordered list of sessions. Pure: the service passes the sessions it
// knows and the hive's agents/teams; nothing here touches SQLite or tmux.
//
// Two spellings of a target spec:
//   object  {sessions?, names?, agents?, teams?, all?, recursive?}
//   strings ["session:s-3", "name:build", "agent:reviewer", "team:backend", "all"] — or one string.
//           A bare string without a prefix is looked up as session id, session name, agent and
//           team; it must mean exactly one set of sessions, else the error lists the prefixed forms.
// `teams` reach their child teams too unless `recursive: false`. `all` means every *alive*
// session the service passed; a dead session is reached only when named explicitly.
// Order: the order in which the spec first mentions a session (object keys in the order
// sessions, names, agents, teams, all).
import { HiveError, nameList } from "./errors.js";
import { teamSubtree } from "./teams.js";

export interface SessionDescriptor {
  id: string;
  name: string;
  alive: boolean;
}

export interface TargetSpecObject {
  sessions?: readonly string[];
  names?: readonly string[];
  agents?: readonly string[];
  teams?: readonly string[];
  all?: boolean;
  /** Teams include their child teams (default true). */
  recursive?: boolean;
}

export type TargetSpec = TargetSpecObject | string | readonly string[];

export interface TargetAgent {
  name: string;
  sessionId: string;
  team: string | null;
  status: string;
}

export interface TargetTeam {
  name: string;
  parent: string | null;
}

export interface TargetContext {
  sessions: readonly SessionDescriptor[];
  agents: readonly TargetAgent[];
  teams: readonly TargetTeam[];
}

export interface ResolvedTarget {
  sessionId: string;
  sessionName: string;
  alive: boolean;
  /** Agents bound to this session. */
  agents: string[];
  /** Which parts of the spec selected it, e.g. ["agent:a1", "team:red"]. */
  via: string[];
}

export interface TargetResolution {
  targets: ResolvedTarget[];
  /** Parts of the spec that exist but reach no session (an agent whose session is gone). */
  unavailable: { ref: string; reason: string }[];
}

type RefKind = "session" | "name" | "agent" | "team" | "all";
interface Ref {
  kind: RefKind;
  value: string;
}

const PREFIXES: readonly RefKind[] = ["session", "name", "agent", "team"];

function parseRef(raw: string): Ref | { bare: string } {
  const s = raw.trim();
  if (s === "all" || s === "*") return { kind: "all", value: "" };
  const colon = s.indexOf(":");
  if (colon > 0) {
    const prefix = s.slice(0, colon) as RefKind;
    if (PREFIXES.includes(prefix)) return { kind: prefix, value: s.slice(colon + 1) };
  }
  return { bare: s };
}

function normalise(spec: TargetSpec): { refs: (Ref | { bare: string })[]; recursive: boolean } {
  if (typeof spec === "string") return { refs: [parseRef(spec)], recursive: true };
  if (Array.isArray(spec)) {
    return { refs: (spec as readonly unknown[]).map((s) => {
      if (typeof s !== "string") throw new HiveError("invalid", `target list entries must be strings, got ${JSON.stringify(s)}`);
      return parseRef(s);
    }), recursive: true };
  }
  const o = spec as TargetSpecObject;
  const refs: Ref[] = [
    ...(o.sessions ?? []).map((value) => ({ kind: "session" as const, value })),
    ...(o.names ?? []).map((value) => ({ kind: "name" as const, value })),
    ...(o.agents ?? []).map((value) => ({ kind: "agent" as const, value })),
    ...(o.teams ?? []).map((value) => ({ kind: "team" as const, value })),
    ...(o.all ? [{ kind: "all" as const, value: "" }] : []),
  ];
  return { refs, recursive: o.recursive ?? true };
}

export function resolveTargets(spec: TargetSpec, ctx: TargetContext): TargetResolution {
  const { refs, recursive } = normalise(spec);
  if (refs.length === 0) {
    throw new HiveError("empty", "no targets given: name sessions, names, agents, teams, or all");
  }
  const byId = new Map(ctx.sessions.map((s) => [s.id, s] as const));
  const agentNames = ctx.agents.map((a) => a.name);
  const teamNames = ctx.teams.map((t) => t.name);
  const sessionList = () => nameList(ctx.sessions.map((s) => `${s.id} (${s.name})`));

  const order: string[] = [];
  const via = new Map<string, string[]>();
  const unavailable: TargetResolution["unavailable"] = [];
  const add = (sessionId: string, ref: string) => {
    const list = via.get(sessionId);
    if (list) {
      if (!list.includes(ref)) list.push(ref);
      return;
    }
    via.set(sessionId, [ref]);
    order.push(sessionId);
  };

  // Each lookup returns the sessions a ref reaches, or undefined when the name does not exist.
  const lookup = (kind: RefKind, value: string): { sessions: string[]; missing: { ref: string; reason: string }[] } | undefined => {
    switch (kind) {
      case "all":
        return { sessions: ctx.sessions.filter((s) => s.alive).map((s) => s.id), missing: [] };
      case "session":
        return byId.has(value) ? { sessions: [value], missing: [] } : undefined;
      case "name": {
        const hits = ctx.sessions.filter((s) => s.name === value).map((s) => s.id);
        return hits.length > 0 ? { sessions: hits, missing: [] } : undefined;
      }
      case "agent": {
        const agent = ctx.agents.find((a) => a.name === value);
        if (!agent) return undefined;
        return byId.has(agent.sessionId)
          ? { sessions: [agent.sessionId], missing: [] }
          : { sessions: [], missing: [{ ref: `agent:${value}`, reason: `its session ${agent.sessionId} is gone (status ${agent.status})` }] };
      }
      case "team": {
        if (!teamNames.includes(value)) return undefined;
        const teams = recursive ? teamSubtree(ctx.teams, value) : [value];
        const members = ctx.agents.filter((a) => a.team !== null && teams.includes(a.team));
        return {
          sessions: members.filter((a) => byId.has(a.sessionId)).map((a) => a.sessionId),
          missing: members
            .filter((a) => !byId.has(a.sessionId))
            .map((a) => ({ ref: `team:${value}/agent:${a.name}`, reason: `its session ${a.sessionId} is gone (status ${a.status})` })),
        };
      }
    }
  };

  const unknown = (kind: RefKind, value: string): HiveError => {
    const valid =
      kind === "session" ? sessionList()
      : kind === "name" ? nameList(ctx.sessions.map((s) => s.name))
      : kind === "agent" ? nameList(agentNames)
      : nameList(teamNames);
    return new HiveError("unknown", `unknown ${kind} '${value}'; valid ${kind}s: ${valid}`);
  };

  for (const ref of refs) {
    if ("bare" in ref) {
      // Try every kind; a bare word must mean one thing.
      const hits = PREFIXES.map((kind) => ({ kind, found: lookup(kind, ref.bare) })).filter((h) => h.found !== undefined);
      if (hits.length === 0) {
        throw new HiveError(
          "unknown",
          `unknown target '${ref.bare}': no session id, session name, agent or team has that name; ` +
            `sessions: ${sessionList()}; agents: ${nameList(agentNames)}; teams: ${nameList(teamNames)}`,
        );
      }
      const sets = hits.map((h) => [...new Set(h.found!.sessions)].sort().join(","));
      if (new Set(sets).size > 1) {
        throw new HiveError(
          "invalid",
          `ambiguous target '${ref.bare}': it is ${hits.map((h) => `${h.kind}:${ref.bare}`).join(" and ")}; use one of those prefixed forms`,
        );
      }
      const hit = hits[0]!;
      hit.found!.sessions.forEach((id) => add(id, `${hit.kind}:${ref.bare}`));
      unavailable.push(...hit.found!.missing);
      continue;
    }
    const found = lookup(ref.kind, ref.value);
    if (!found) throw unknown(ref.kind, ref.value);
    const label = ref.kind === "all" ? "all" : `${ref.kind}:${ref.value}`;
    found.sessions.forEach((id) => add(id, label));
    unavailable.push(...found.missing);
  }

  if (order.length === 0) {
    const why = unavailable.length > 0 ? `: ${unavailable.map((u) => `${u.ref} — ${u.reason}`).join("; ")}` : "";
    throw new HiveError("empty", `targets matched no session${why}${why ? "" : " (a team without agents, or no alive session)"}`);
  }

  return {
    targets: order.map((id) => {
      const s = byId.get(id)!;
      return {
        sessionId: id,
        sessionName: s.name,
        alive: s.alive,
        agents: ctx.agents.filter((a) => a.sessionId === id).map((a) => a.name),
        via: via.get(id)!,
      };
    }),
    unavailable,
  };
}
