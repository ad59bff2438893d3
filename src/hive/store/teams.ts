// Teams: named groups of agents, optionally nested under a parent team. Nesting gives targets
// ("team:backend" reaches its child teams too) and cascades ("nearest team's text") their shape.
//
// Removing a team never strands anyone: its agents move to the removed team's parent (or
// become team-less when it had none) and its child teams are re-parented the same way. The
// result lists who moved where, and each move is a lifecycle event.
import type { HiveStore } from "./store.js";
import type { EventLog } from "./event-log.js";
import { HiveError, checkName, unknownName } from "./errors.js";

export interface TeamRecord {
  name: string;
  parent: string | null;
  description: string | null;
  createdAt: number;
}

export interface TeamView extends TeamRecord {
  /** Agents directly in this team (not its children's). */
  members: string[];
  /** Direct child teams. */
  children: string[];
}

export interface TeamRemoval {
  team: TeamRecord;
  /** Where the members and child teams went: the removed team's parent, or null (team-less / top level). */
  movedTo: string | null;
  agents: string[];
  childTeams: string[];
}

interface TeamRow {
  name: string;
  parent: string | null;
  description: string | null;
  created_at: number;
}

const toTeam = (r: TeamRow): TeamRecord => ({
  name: r.name,
  parent: r.parent,
  description: r.description,
  createdAt: r.created_at,
});

/** Names of `root` and every team below it, parents before children. Pure; tolerates cycles in input. */
export function teamSubtree(teams: readonly Pick<TeamRecord, "name" | "parent">[], root: string): string[] {
  const children = new Map<string, string[]>();
  for (const t of teams) {
    if (t.parent === null) continue;
    const list = children.get(t.parent) ?? [];
    list.push(t.name);
    children.set(t.parent, list);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  const queue = [root];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    out.push(name);
    queue.push(...(children.get(name) ?? []).sort());
  }
  return out;
}

/** `name`, its parent, grandparent … up to the top. Pure; stops on a cycle. */
export function teamAncestry(teams: readonly Pick<TeamRecord, "name" | "parent">[], name: string): string[] {
  const parentOf = new Map(teams.map((t) => [t.name, t.parent] as const));
  const out: string[] = [];
  let cur: string | null | undefined = name;
  while (cur != null && !out.includes(cur)) {
    out.push(cur);
    cur = parentOf.get(cur);
  }
  return out;
}

export class Teams {
  constructor(
    private readonly store: HiveStore,
    private readonly events: EventLog,
  ) {}

  find(name: string): TeamRecord | undefined {
    const row = this.store.read(() => this.store.db.prepare("SELECT * FROM teams WHERE name = ?").get(name)) as
      | TeamRow
      | undefined;
    return row ? toTeam(row) : undefined;
  }

  get(name: string): TeamRecord {
    const team = this.find(name);
    if (!team) throw unknownName("team", name, this.names());
    return team;
  }

  names(): string[] {
    const rows = this.store.read(() => this.store.db.prepare("SELECT name FROM teams ORDER BY name").all()) as { name: string }[];
    return rows.map((r) => r.name);
  }

  list(): TeamRecord[] {
    return (this.store.read(() => this.store.db.prepare("SELECT * FROM teams ORDER BY name").all()) as TeamRow[]).map(toTeam);
  }

  /** Teams with their direct members and children, for listing. */
  view(): TeamView[] {
    return this.store.read(() => {
      const teams = this.list();
      const members = this.store.db.prepare("SELECT name, team FROM agents WHERE team IS NOT NULL ORDER BY name").all() as {
        name: string;
        team: string;
      }[];
      return teams.map((t) => ({
        ...t,
        members: members.filter((m) => m.team === t.name).map((m) => m.name),
        children: teams.filter((c) => c.parent === t.name).map((c) => c.name),
      }));
    });
  }

  /** Creates a team; refuses an existing name, an unknown parent. */
  create(name: string, options: { parent?: string | null; description?: string | null } = {}): TeamRecord {
    checkName("team", name);
    return this.store.write(() => {
      if (this.find(name)) throw new HiveError("duplicate", `team '${name}' already exists`);
      const parent = options.parent ?? null;
      if (parent !== null) this.get(parent);
      const team: TeamRecord = { name, parent, description: options.description ?? null, createdAt: Date.now() };
      this.store.db
        .prepare("INSERT INTO teams (name, parent, description, created_at) VALUES (?, ?, ?, ?)")
        .run(team.name, team.parent, team.description, team.createdAt);
      this.events.append({ kind: "lifecycle", data: { event: "team_created", team: name, parent } });
      return team;
    });
  }

  /** The team, created (top level) if it does not exist yet. */
  ensure(name: string): { team: TeamRecord; created: boolean } {
    return this.store.write(() => {
      const existing = this.find(checkName("team", name));
      return existing ? { team: existing, created: false } : { team: this.create(name), created: true };
    });
  }

  /** Moves a team under `parent` (null: top level). Refuses a move that would make a cycle. */
  setParent(name: string, parent: string | null): TeamRecord {
    return this.store.write(() => {
      const team = this.get(name);
      if (parent !== null) {
        this.get(parent);
        // Walking up from the new parent: reaching `name` means `name` would be its own ancestor.
        const chain = teamAncestry(this.list(), parent);
        const at = chain.indexOf(name);
        if (at >= 0) {
          const cycle = [name, ...chain.slice(0, at + 1)];
          throw new HiveError(
            "cycle",
            `refused: making '${parent}' the parent of '${name}' would create a cycle: ${cycle.join(" → ")}`,
          );
        }
      }
      this.store.db.prepare("UPDATE teams SET parent = ? WHERE name = ?").run(parent, name);
      this.events.append({ kind: "lifecycle", data: { event: "team_parent", team: name, from: team.parent, to: parent } });
      return { ...team, parent };
    });
  }

  /** Names of `name` and all teams below it. */
  subtree(name: string): string[] {
    return this.store.read(() => {
      this.get(name);
      return teamSubtree(this.list(), name);
    });
  }

  /** Removes a team; members and child teams move to its parent (see the file comment). */
  remove(name: string): TeamRemoval {
    return this.store.write(() => {
      const team = this.get(name);
      const db = this.store.db;
      const agents = (db.prepare("SELECT name FROM agents WHERE team = ? ORDER BY name").all(name) as { name: string }[]).map(
        (r) => r.name,
      );
      const childTeams = (db.prepare("SELECT name FROM teams WHERE parent = ? ORDER BY name").all(name) as { name: string }[]).map(
        (r) => r.name,
      );
      const now = Date.now();
      db.prepare("UPDATE agents SET team = ?, updated_at = ? WHERE team = ?").run(team.parent, now, name);
      this.store.wrote("agents");
      db.prepare("UPDATE teams SET parent = ? WHERE parent = ?").run(team.parent, name);
      db.prepare("DELETE FROM teams WHERE name = ?").run(name);
      this.events.append({
        kind: "lifecycle",
        data: { event: "team_removed", team: name, movedTo: team.parent, agents, childTeams },
      });
      return { team, movedTo: team.parent, agents, childTeams };
    });
  }
}
