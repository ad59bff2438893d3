// The MCP door of the hive: one tool per verb (hive_*, agent_*, team_*), descriptions written
// for a model. Behaviour lives in HiveService; these only validate and format.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { guard, ok } from "./result.js";
import { z } from "zod";
import { LAYOUT_KINDS, EVENT_KINDS } from "../hive/index.js";
import type { HiveService } from "../service/hive-service.js";
import type { TermhiveService } from "../service/service.js";

const name = z.string().min(1).max(64);
const targets = z
  .union([
    z.string().min(1),
    z.array(z.string().min(1)).min(1),
    z.object({
      sessions: z.array(z.string()).optional(),
      names: z.array(z.string()).optional(),
      agents: z.array(z.string()).optional(),
      teams: z.array(z.string()).optional(),
      all: z.boolean().optional(),
      recursive: z.boolean().optional(),
    }),
  ])
  .describe('Who: "all", an agent/team/session name, prefixed forms ("agent:a1", "team:red", "session:s-3", "name:build"), a list of those, or {agents, teams, sessions, names, all}. Teams include child teams.');
const paneSpec = z.object({
  name: name.optional().describe("Session name of the pane."),
  command: z.string().optional().describe("Program to run (default: your shell)."),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  agent: name.optional().describe("Register the pane as this agent."),
  team: name.optional().describe("Team of the agent (created if missing)."),
  profile: name.optional().describe("Status profile: claude, codex, aider, shell or a custom one (default: by command)."),
});


const json = (value: unknown) => JSON.stringify(value, null, 1);

export function registerHiveTools(server: McpServer, service: TermhiveService, hive: HiveService, clientId = "stdio"): void {
  const ctx = (extra: { sessionId?: string }) => ({ clientId: extra.sessionId ?? clientId });
  const tool = <S extends z.ZodRawShape>(id: string, title: string, description: string, inputSchema: S, run: (input: z.output<z.ZodObject<S>>, extra: { sessionId?: string }) => Promise<CallToolResult>) =>
    server.registerTool(id, { title, description, inputSchema }, ((input: z.output<z.ZodObject<S>>, extra: { sessionId?: string }) => guard(() => run(input, extra))) as never);
  void service;

  tool("hive_layout", "Open several panes side by side",
    "Create a tmux window with several named panes side by side (a person can attach and watch them all), optionally registering each pane as an agent in a team. Layouts: single, horizontal, vertical, quad (4), main-vertical, main-horizontal, tiled. save_as stores the arrangement; {restore: name} recreates it.",
    {
      layout: z.enum(LAYOUT_KINDS).optional(),
      panes: z.array(paneSpec).max(32).optional().describe("One entry per pane, in order (quad: top-left, top-right, bottom-left, bottom-right)."),
      count: z.number().int().min(1).max(32).optional().describe("Pane count when panes is not given (plain shells)."),
      save_as: name.optional(), restore: name.optional(), replace: z.boolean().optional().describe("Rebind agent names / overwrite a saved layout."),
      rows: z.number().int().min(10).max(500).optional(), cols: z.number().int().min(20).max(1000).optional(),
    },
    async (input) => {
      const r = await hive.layout(input);
      return ok(r, `${r.layout} window ${r.window}: ${r.panes.map((p) => `${p.name}${p.agent ? ` (agent ${p.agent}${p.team ? `, team ${p.team}` : ""})` : ""} ${p.cols}x${p.rows} ${p.ready}`).join("; ")}\nwatch: ${r.attach}`);
    });
  tool("hive_split", "Split a session's pane", "Open a new pane next to an existing session (left/right/above/below), optionally as an agent.",
    { session: z.string(), direction: z.enum(["left", "right", "above", "below"]), name: name.optional(), command: z.string().optional(), cwd: z.string().optional(), percent: z.number().min(5).max(95).optional(), agent: name.optional(), team: name.optional(), profile: name.optional() },
    async (input) => { const r = await hive.split(input); return ok(r, `split ${r.split_from} ${r.direction}: ${r.name} (${r.session}) ${r.ready}`); });

  tool("agent_register", "Register a session as an agent", "Bind an agent name to an existing session (with team and status profile). Refused if the name is taken unless replace: true.",
    { name, session: z.string(), team: name.optional(), profile: name.optional(), replace: z.boolean().optional() },
    async (input) => { const r = await hive.registerAgent(input); return ok(r, `agent ${r.agent.name} → ${r.agent.session_name} (${r.agent.status})`); });
  tool("agent_spawn", "Start an agent in a new pane",
    "Start an agent program (claude, codex, aider, any command) in a new session, optionally in a new git worktree on a new branch, join it to a team and wait until it is ready for input (profile ready pattern or quiet screen).",
    { name, command: z.string().optional(), team: name.optional(), cwd: z.string().optional(), env: z.record(z.string(), z.string()).optional(), profile: name.optional(),
      worktree: z.object({ repo: z.string(), branch: z.string().min(1) }).optional(), replace: z.boolean().optional(), ready_timeout_s: z.number().min(0.1).max(600).optional() },
    async (input) => { const r = await hive.spawn(input); return ok(r, `spawned ${r.agent.name} (${r.agent.profile}) ${r.ready} in ${r.ready_ms} ms, status ${r.agent.status}${r.worktree ? ` · worktree ${r.worktree.path} on ${r.worktree.branch}` : ""}`); });
  tool("agent_list", "List agents", "Every agent (or a team's, with child teams): session, team, profile, status and detail, alive.",
    { team: name.optional(), recursive: z.boolean().optional() },
    async (input) => { const r = await hive.listAgents(input); return ok(r, r.agents.length ? r.agents.map((a) => `${a.name}${a.team ? ` [${a.team}]` : ""} ${a.status}${a.detail ? ` (${a.detail})` : ""} · ${a.session_name ?? a.session}${a.alive ? "" : " · gone"}`).join("\n") : "no agents"); });
  tool("agent_remove", "Forget an agent", "Remove an agent name (its session stays unless close: true).",
    { name, close: z.boolean().optional() }, async (input) => { const r = await hive.removeAgent(input); return ok(r, `removed ${r.removed}${r.closed ? " and closed its session" : ""}`); });

  tool("team_create", "Create a team", "Create a team, optionally under a parent team.", { name, parent: name.optional(), description: z.string().max(500).optional() },
    async (input) => { const r = hive.createTeam(input); return ok(r, `team ${r.team.name}${r.team.parent ? ` under ${r.team.parent}` : ""}`); });
  tool("team_assign", "Put an agent in a team, or a team under a parent", "With agent: the agent joins team (null: leaves its team). Without agent: team moves under parent (null: top level); cycles are refused.",
    { agent: name.optional(), team: name.nullable(), parent: name.nullable().optional() },
    async (input) => { const r = await hive.assign(input); return ok(r, json(r)); });
  tool("team_list", "List teams", "Teams with parent, members and child teams.", {}, async () => { const r = hive.listTeams(); return ok(r, r.teams.length ? r.teams.map((t) => `${t.name}${t.parent ? ` ⊂ ${t.parent}` : ""}: ${t.members.join(", ") || "(no agents)"}`).join("\n") : "no teams"); });
  tool("team_remove", "Remove a team", "Remove a team; its agents and child teams move to its parent.", { name },
    async (input) => { const r = hive.removeTeam(input); return ok(r, `removed team ${r.team.name}; moved ${r.agents.length} agents and ${r.childTeams.length} teams to ${r.movedTo ?? "top level"}`); });

  tool("hive_send", "Type into many sessions at once", "Type text into every target in parallel (Enter unless enter: false). Results per target; a failure on one target does not stop the others. skip_duplicates: skip a session whose last hive_send text was identical.",
    { targets, text: z.string().min(1).max(1024 * 1024), enter: z.boolean().optional(), skip_duplicates: z.boolean().optional(), confirm: z.boolean().optional() },
    async (input, extra) => { const r = await hive.send(input, ctx(extra)); return ok(r, `sent to ${r.sent}, failed ${r.failed}\n` + r.results.map((x) => `${x.name}: ${x.ok ? ((x.result as { skipped?: string }).skipped ? "skipped (duplicate)" : "ok") : `error: ${x.error}`}`).join("\n")); });
  tool("hive_read", "Read many sessions at once", "Read every target in parallel (default: the screen), with an optional filter regex and a per-target line limit. Results per target; failures reported per target.",
    { targets, filter: z.string().max(2000).optional(), lines: z.number().int().min(1).max(10_000).optional(), mode: z.enum(["auto", "new", "screen", "all"]).optional(), context: z.number().int().min(0).max(20).optional(), max_tokens: z.number().int().min(50).max(200_000).optional() },
    async (input, extra) => { const r = await hive.read(input, ctx(extra)); return ok(r, r.results.map((x) => `── ${x.name}${x.agents.length ? ` (${x.agents.join(", ")})` : ""}\n${x.ok ? x.result!.output : `error: ${x.error}`}`).join("\n")); });
  tool("hive_message", "Send cascading messages to agents",
    "Give every agent exactly one text: its own (agents), else its nearest team's (teams), else the broadcast. Typed reliably into the agent's TUI (bracketed paste, Enter after it settles, verified, retried once). delivered is true only when the program visibly took the input.",
    { broadcast: z.string().min(1).optional(), teams: z.record(z.string(), z.string().min(1)).optional(), agents: z.record(z.string(), z.string().min(1)).optional(), submit: z.boolean().optional().describe("Press Enter (default true)."), confirm: z.boolean().optional().describe("Send even texts the safety gate refuses (as for hive_send).") },
    async (input) => { const r = await hive.message(input); return ok(r, `delivered ${r.delivered}, failed ${r.failed}\n` + r.assignments.map((a) => `${a.agent} ← ${a.source}${a.delivered ? "" : ` NOT delivered${a.note ? ` (${a.note})` : ""}`}`).join("\n")); });
  tool("hive_status", "Set an agent's status", "Record an agent's own status (starting, working, idle, waiting_for_input/waiting, error) with an optional detail; shown in its pane border.",
    { agent: name, status: z.string(), detail: z.string().max(500).optional() },
    async (input) => { const r = await hive.setStatus(input); return ok(r, `${r.agent.name}: ${r.agent.status}${r.agent.detail ? ` (${r.agent.detail})` : ""}`); });
  tool("hive_events", "Read hive events", "Status changes, watcher hits, messages and lifecycle events after a cursor (pass the returned cursor next time).",
    { since: z.number().int().min(0).optional(), targets: targets.optional(), kinds: z.array(z.enum(EVENT_KINDS)).optional(), limit: z.number().int().min(1).max(1000).optional() },
    async (input) => { const r = await hive.events(input); return ok(r, `${r.events.length} events, cursor ${r.cursor}${r.more ? " (more)" : ""}${r.missed ? `, ${r.missed} pruned` : ""}\n` + r.events.map((e) => `#${e.id} ${e.kind} ${e.agent ?? e.sessionId ?? ""} ${JSON.stringify(e.data)}`).join("\n")); });
  tool("hive_wait", "Wait for agents", "Block until targets are idle, waiting_for_input, exited, or show a regex (pattern) — any or all of them — or the timeout passes.",
    { targets, for: z.enum(["idle", "waiting_for_input", "pattern", "exited"]), pattern: z.string().max(2000).optional(), mode: z.enum(["any", "all"]).optional(), timeout_s: z.number().min(0.05).max(3600).optional() },
    async (input) => { const r = await hive.wait(input); return ok(r, `${r.matched ? "matched" : "timeout"} after ${r.elapsed_ms} ms\n` + r.targets.map((t) => `${t.name}: ${t.met ? "✓" : "·"} ${t.detail}`).join("\n")); });
  tool("hive_watch", "Watch output for a regex", "Add a persisted regex watcher over targets (hits become watch events, see hive_events), and/or remove one by id. Returns the current watchers.",
    { targets: targets.optional(), pattern: z.string().max(1000).optional(), flags: z.string().max(4).optional(), label: z.string().max(100).optional(), remove: z.number().int().optional() },
    async (input) => { const r = await hive.watch(input); return ok(r, r.watchers.map((w) => `#${w.id} /${w.pattern}/${w.flags} on ${JSON.stringify(w.target)}`).join("\n") || "no watchers"); });
  tool("hive_mail", "Leave a message for an agent", "Put a message in an agent's mailbox (persisted); type_into_pane also types it into the agent's pane.",
    { to: name, text: z.string().min(1).max(64 * 1024), from: z.string().max(64).optional(), type_into_pane: z.boolean().optional() },
    async (input) => { const r = await hive.mail(input); return ok(r, `message #${r.message.id} to ${r.message.to}${r.typed ? ` · typed: ${r.typed.delivered ? "delivered" : "not delivered"}` : ""}`); });
  tool("hive_inbox", "Read an agent's mailbox", "An agent's unread messages (all: include read ones), marked read unless peek: true.",
    { agent: name, all: z.boolean().optional(), peek: z.boolean().optional(), limit: z.number().int().min(1).max(500).optional() },
    async (input) => { const r = await hive.inbox(input); return ok(r, r.messages.length ? r.messages.map((m) => `#${m.id} from ${m.from}: ${m.text}`).join("\n") : "no messages"); });
  tool("hive_focus", "Show a session to a person", "Make a session (or agent) the active pane for a person attached to tmux.", { session: z.string() },
    async (input) => { const r = await hive.focus(input); return ok(r, `focused ${r.focused}; watch: ${r.attach}`); });
}
