// Input shapes of the hive operations, shared by the MCP hive tools and the gRPC door so both
// validate alike (src/service/schemas.ts is the same for the terminal operations).
import { z } from "zod";
import { EVENT_KINDS, LAYOUT_KINDS } from "../hive/index.js";

export const name = z.string().min(1).max(64);

export const targets = z
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

export const paneSpec = z.object({
  name: name.optional().describe("Session name of the pane."),
  command: z.string().optional().describe("Program to run (default: your shell)."),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  agent: name.optional().describe("Register the pane as this agent."),
  team: name.optional().describe("Team of the agent (created if missing)."),
  profile: name.optional().describe("Status profile: claude, codex, aider, shell or a custom one (default: by command)."),
  host: z.string().max(512).optional().describe("ssh destination the layout runs on (one host per layout: its panes share a tmux window)."),
});

export const layoutInput = {
  layout: z.enum(LAYOUT_KINDS).optional(),
  panes: z.array(paneSpec).max(32).optional().describe("One entry per pane, in order (quad: top-left, top-right, bottom-left, bottom-right)."),
  count: z.number().int().min(1).max(32).optional().describe("Pane count when panes is not given (plain shells)."),
  save_as: name.optional(), restore: name.optional(), replace: z.boolean().optional().describe("Rebind agent names / overwrite a saved layout."),
  rows: z.number().int().min(10).max(500).optional(), cols: z.number().int().min(20).max(1000).optional(),
};

export const splitInput = {
  session: z.string(), direction: z.enum(["left", "right", "above", "below"]), name: name.optional(), command: z.string().optional(), cwd: z.string().optional(),
  percent: z.number().min(5).max(95).optional(), agent: name.optional(), team: name.optional(), profile: name.optional(),
  host: z.string().max(512).optional().describe("Must be the split session's host (the default)."),
};

export const agentRegisterInput = { name, session: z.string(), team: name.optional(), profile: name.optional(), replace: z.boolean().optional() };

export const agentSpawnInput = {
  name, command: z.string().optional(), team: name.optional(), cwd: z.string().optional(), env: z.record(z.string(), z.string()).optional(), profile: name.optional(),
  worktree: z.object({ repo: z.string(), branch: z.string().min(1) }).optional(), replace: z.boolean().optional(), ready_timeout_s: z.number().min(0.1).max(600).optional(),
  host: z.string().max(512).optional().describe("Run the agent on another machine: an ssh destination, in that host's tmux."),
};

export const agentListInput = { team: name.optional(), recursive: z.boolean().optional() };

export const agentRemoveInput = { name, close: z.boolean().optional() };

export const teamCreateInput = { name, parent: name.optional(), description: z.string().max(500).optional() };

export const teamAssignInput = { agent: name.optional(), team: name.nullable(), parent: name.nullable().optional() };

export const teamListInput = {};

export const teamRemoveInput = { name };

export const sendInput = { targets, text: z.string().min(1).max(1024 * 1024), enter: z.boolean().optional(), skip_duplicates: z.boolean().optional(), confirm: z.boolean().optional() };

export const readInput = {
  targets, filter: z.string().max(2000).optional(), lines: z.number().int().min(1).max(10_000).optional(), mode: z.enum(["auto", "new", "screen", "all"]).optional(),
  context: z.number().int().min(0).max(20).optional(), max_tokens: z.number().int().min(50).max(200_000).optional(),
};

export const messageInput = {
  broadcast: z.string().min(1).optional(), teams: z.record(z.string(), z.string().min(1)).optional(), agents: z.record(z.string(), z.string().min(1)).optional(),
  submit: z.boolean().optional().describe("Press Enter (default true)."), confirm: z.boolean().optional().describe("Send even texts the safety gate refuses (as for hive_send)."),
  when: z.enum(["idle", "now"]).optional().describe('"idle" (default): an agent that is busy gets the text queued and typed when it is next idle. "now": type at once.'),
};

export const queueInput = { agent: name.optional(), cancel: z.number().int().min(1).optional().describe("Id of a queued message to take out of the queue.") };

export const statusInput = { agent: name, status: z.string(), detail: z.string().max(500).optional() };

export const eventsInput = { since: z.number().int().min(0).optional(), targets: targets.optional(), kinds: z.array(z.enum(EVENT_KINDS)).optional(), limit: z.number().int().min(1).max(1000).optional() };

export const waitInput = {
  targets, for: z.enum(["idle", "waiting_for_input", "pattern", "exited"]), pattern: z.string().max(2000).optional(), mode: z.enum(["any", "all"]).optional(),
  timeout_s: z.number().min(0.05).max(3600).optional(),
};

export const watchInput = { targets: targets.optional(), pattern: z.string().max(1000).optional(), flags: z.string().max(4).optional(), label: z.string().max(100).optional(), remove: z.number().int().optional() };

export const mailInput = { to: name, text: z.string().min(1).max(64 * 1024), from: z.string().max(64).optional(), type_into_pane: z.boolean().optional() };

export const inboxInput = { agent: name, all: z.boolean().optional(), peek: z.boolean().optional(), limit: z.number().int().min(1).max(500).optional() };

export const focusInput = { session: z.string() };
