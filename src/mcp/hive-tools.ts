// The MCP door of the hive: one tool per verb (hive_*, agent_*, team_*), descriptions written
// for a model. Behaviour lives in HiveService; these only validate and format.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { guard, ok } from "./result.js";
import { strictInput } from "./strict.js";
import type { z } from "zod";
import * as hs from "../service/hive-schemas.js";
import type { HiveService } from "../service/hive-service.js";
import type { TermhiveService } from "../service/service.js";
import { context, type Extra } from "./tools.js";

const json = (value: unknown) => JSON.stringify(value, null, 1);

export function registerHiveTools(server: McpServer, service: TermhiveService, hive: HiveService, clientId = "stdio"): void {
  // The same call context as the terminal tools: client id for read cursors, progress to the caller.
  const ctx = (extra: Extra) => context(extra, clientId);
  const tool = <S extends z.ZodRawShape>(id: string, title: string, description: string, inputSchema: S, run: (input: z.output<z.ZodObject<S>>, extra: Extra) => Promise<CallToolResult>) =>
    server.registerTool(id, { title, description, inputSchema: strictInput(inputSchema) }, ((input: z.output<z.ZodObject<S>>, extra: Extra) => guard(() => run(input, extra))) as never);
  void service;

  tool("hive_layout", "Open several panes side by side",
    "Create a tmux window with several named panes side by side (a person can attach and watch them all), optionally registering each pane as an agent in a team. Layouts: single, horizontal, vertical, quad (4), main-vertical, main-horizontal, tiled. save_as stores the arrangement; {restore: name} recreates it.",
    hs.layoutInput,
    async (input, extra) => {
      const r = await hive.layout(input, ctx(extra));
      return ok(r, `${r.layout} window ${r.window}: ${r.panes.map((p) => `${p.name}${p.agent ? ` (agent ${p.agent}${p.team ? `, team ${p.team}` : ""})` : ""} ${p.cols}x${p.rows} ${p.ready}`).join("; ")}\nwatch: ${r.attach}`);
    });
  tool("hive_split", "Split a session's pane", "Open a new pane next to an existing session (left/right/above/below), optionally as an agent.",
    hs.splitInput,
    async (input) => { const r = await hive.split(input); return ok(r, `split ${r.split_from} ${r.direction}: ${r.name} (${r.session}) ${r.ready}`); });

  tool("agent_register", "Register a session as an agent", "Bind an agent name to an existing session (with team and status profile). Refused if the name is taken unless replace: true.",
    hs.agentRegisterInput,
    async (input) => { const r = await hive.registerAgent(input); return ok(r, `agent ${r.agent.name} → ${r.agent.session_name} (${r.agent.status})`); });
  tool("agent_spawn", "Start an agent in a new pane",
    "Start an agent program (claude, codex, aider, any command) in a new session, optionally in a new git worktree on a new branch, join it to a team and wait until it is ready for input (profile ready pattern or quiet screen).",
    hs.agentSpawnInput,
    async (input, extra) => { const r = await hive.spawn(input, ctx(extra)); return ok(r, `spawned ${r.agent.name} (${r.agent.profile}) ${r.ready} in ${r.ready_ms} ms, status ${r.agent.status}${r.worktree ? ` · worktree ${r.worktree.path} on ${r.worktree.branch}` : ""}`); });
  tool("agent_list", "List agents", "Every agent (or a team's, with child teams): session, team, profile, status and detail, alive.",
    hs.agentListInput,
    async (input) => { const r = await hive.listAgents(input); return ok(r, r.agents.length ? r.agents.map((a) => `${a.name}${a.team ? ` [${a.team}]` : ""} ${a.status}${a.detail ? ` (${a.detail})` : ""} · ${a.session_name ?? a.session}${a.alive ? "" : " · gone"}`).join("\n") : "no agents"); });
  tool("agent_remove", "Forget an agent", "Remove an agent name (its session stays unless close: true).",
    hs.agentRemoveInput, async (input) => { const r = await hive.removeAgent(input); return ok(r, `removed ${r.removed}${r.closed ? " and closed its session" : ""}`); });

  tool("team_create", "Create a team", "Create a team, optionally under a parent team.", hs.teamCreateInput,
    async (input) => { const r = hive.createTeam(input); return ok(r, `team ${r.team.name}${r.team.parent ? ` under ${r.team.parent}` : ""}`); });
  tool("team_assign", "Put an agent in a team, or a team under a parent", "With agent: the agent joins team (null: leaves its team). Without agent: team moves under parent (null: top level); cycles are refused.",
    hs.teamAssignInput,
    async (input) => { const r = await hive.assign(input); return ok(r, json(r)); });
  tool("team_list", "List teams", "Teams with parent, members and child teams.", hs.teamListInput, async () => { const r = hive.listTeams(); return ok(r, r.teams.length ? r.teams.map((t) => `${t.name}${t.parent ? ` ⊂ ${t.parent}` : ""}: ${t.members.join(", ") || "(no agents)"}`).join("\n") : "no teams"); });
  tool("team_remove", "Remove a team", "Remove a team; its agents and child teams move to its parent.", hs.teamRemoveInput,
    async (input) => { const r = hive.removeTeam(input); return ok(r, `removed team ${r.team.name}; moved ${r.agents.length} agents and ${r.childTeams.length} teams to ${r.movedTo ?? "top level"}`); });

  tool("hive_send", "Type into many sessions at once", "Type text into every target in parallel (Enter unless enter: false). Results per target; a failure on one target does not stop the others. skip_duplicates: skip a session whose last hive_send text was identical.",
    hs.sendInput,
    async (input, extra) => { const r = await hive.send(input, ctx(extra)); return ok(r, `sent to ${r.sent}, failed ${r.failed}\n` + r.results.map((x) => `${x.name}: ${x.ok ? ((x.result as { skipped?: string }).skipped ? "skipped (duplicate)" : "ok") : `error: ${x.error}`}`).join("\n")); });
  tool("hive_read", "Read many sessions at once", "Read every target in parallel (default: the screen), with an optional filter regex and a per-target line limit. Results per target; failures reported per target.",
    hs.readInput,
    async (input, extra) => { const r = await hive.read(input, ctx(extra)); return ok(r, r.results.map((x) => `── ${x.name}${x.agents.length ? ` (${x.agents.join(", ")})` : ""}\n${x.ok ? x.result!.output : `error: ${x.error}`}`).join("\n")); });
  tool("hive_message", "Send cascading messages to agents",
    "Give every agent exactly one text: its own (agents), else its nearest team's (teams), else the broadcast. Typed reliably into the agent's TUI (bracketed paste, Enter after it settles, verified, retried once). delivered is true only when the program visibly took the input. An agent that is busy (working, waiting for input) gets the text queued and typed when it is next idle (when: \"now\" types at once); see hive_queue. hive_wait {for: \"idle\"} right after waits for the work the message started.",
    hs.messageInput,
    async (input) => { const r = await hive.message(input); return ok(r, `delivered ${r.delivered}, queued ${r.queued}, failed ${r.failed}\n` + r.assignments.map((a) => `${a.agent} ← ${a.source}${a.delivered ? "" : a.queued ? " queued (busy; typed when idle)" : ` NOT delivered${a.note ? ` (${a.note})` : ""}`}`).join("\n")); });
  tool("hive_queue", "List or cancel queued messages",
    "Messages hive_message queued for busy agents (oldest first), typed when the agent is next idle or dropped after 10 min (delivered/expired message events follow). agent narrows the list; cancel: <id> takes one out of the queue.",
    hs.queueInput,
    async (input) => { const r = await hive.queue(input); return ok(r, `${r.cancelled ? `cancelled #${r.cancelled.id}\n` : ""}${r.queued.length ? r.queued.map((m) => `#${m.id} → ${m.agents.join(", ")}${m.typing ? " (typing)" : ""}: ${m.text.slice(0, 80)}`).join("\n") : "no queued messages"}`); });
  tool("hive_status", "Set an agent's status", "Record an agent's own status (starting, working, idle, waiting_for_input/waiting, error) with an optional detail; shown in its pane border.",
    hs.statusInput,
    async (input) => { const r = await hive.setStatus(input); return ok(r, `${r.agent.name}: ${r.agent.status}${r.agent.detail ? ` (${r.agent.detail})` : ""}`); });
  tool("hive_events", "Read hive events", "Status changes, watcher hits, messages and lifecycle events after a cursor (pass the returned cursor next time).",
    hs.eventsInput,
    async (input) => { const r = await hive.events(input); return ok(r, `${r.events.length} events, cursor ${r.cursor}${r.more ? " (more)" : ""}${r.missed ? `, ${r.missed} pruned` : ""}\n` + r.events.map((e) => `#${e.id} ${e.kind} ${e.agent ?? e.sessionId ?? ""} ${JSON.stringify(e.data)}`).join("\n")); });
  tool("hive_wait", "Wait for agents", "Block until targets are idle, waiting_for_input, exited, or show a regex (pattern) — any or all of them — or the timeout passes.",
    hs.waitInput,
    async (input, extra) => { const r = await hive.wait(input, ctx(extra)); return ok(r, `${r.matched ? "matched" : "timeout"} after ${r.elapsed_ms} ms\n` + r.targets.map((t) => `${t.name}: ${t.met ? "✓" : "·"} ${t.detail}`).join("\n")); });
  tool("hive_watch", "Watch output for a regex", "Add a persisted regex watcher over targets (hits become watch events, see hive_events), and/or remove one by id. Returns the current watchers.",
    hs.watchInput,
    async (input) => { const r = await hive.watch(input); return ok(r, r.watchers.map((w) => `#${w.id} /${w.pattern}/${w.flags} on ${JSON.stringify(w.target)}`).join("\n") || "no watchers"); });
  tool("hive_mail", "Leave a message for an agent", "Put a message in an agent's mailbox (persisted); type_into_pane also types it into the agent's pane.",
    hs.mailInput,
    async (input) => { const r = await hive.mail(input); return ok(r, `message #${r.message.id} to ${r.message.to}${r.typed ? ` · typed: ${r.typed.delivered ? "delivered" : "not delivered"}` : ""}`); });
  tool("hive_inbox", "Read an agent's mailbox", "An agent's unread messages (all: include read ones), marked read unless peek: true.",
    hs.inboxInput,
    async (input) => { const r = await hive.inbox(input); return ok(r, r.messages.length ? r.messages.map((m) => `#${m.id} from ${m.from}: ${m.text}`).join("\n") : "no messages"); });
  tool("hive_focus", "Show a session to a person", "Make a session (or agent) the active pane for a person attached to tmux.", hs.focusInput,
    async (input) => { const r = await hive.focus(input); return ok(r, `focused ${r.focused}; watch: ${r.attach}`); });
}
