// Hive verbs of the `termhive` command, meant to be run from inside an agent's pane:
//   termhive msg <agent> <text…>        leave a message in another agent's mailbox
//   termhive status <status> [detail…]  report this pane's agent status
//   termhive inbox [--all] [--peek]     read this pane's agent's messages (marks them read)
// They write the hive store directly (no server needed). `status` also prints the OSC 1337
// status sequence when stdout is the pane, so a running termhive server updates the pane
// title at once (the store write alone is seen by servers only when they next read it).
import type { Command } from "commander";
import { Hive, HiveError, encodeStatusOsc, parseStatusArgs } from "../hive/index.js";
import { loadConfig } from "../config.js";
import { cliFailure } from "../verbs/errors.js";
import hiveInbox from "../verbs/hive-inbox.js";
import { RELAY_ENV, writeRelayRequest } from "../sandbox/relay.js";

/** In a sandboxed pane: its relay folder (the hive store is out of reach there; sandbox/relay.ts). */
const relay = () => process.env[RELAY_ENV] || null;

/** The agent bound to the pane this command runs in (TERMHIVE_AGENT, else by TERMHIVE_SESSION). */
function ownAgent(hive: Hive): string | null {
  if (process.env.TERMHIVE_AGENT && hive.agents.find(process.env.TERMHIVE_AGENT)) return process.env.TERMHIVE_AGENT;
  const session = process.env.TERMHIVE_SESSION;
  return session ? (hive.agents.bySession(session)[0]?.name ?? null) : null;
}

function withHive<T>(work: (hive: Hive) => T): T {
  const hive = Hive.open({ home: loadConfig().home });
  try {
    return work(hive);
  } finally {
    hive.close();
  }
}

/** One line; exit 2 for a bad argument (usage), 1 for an answer such as an unknown agent. */
function fail(error: unknown): never {
  const { message, exit } = cliFailure(error);
  process.stderr.write(`termhive: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  process.exit(exit);
}

export function registerHiveCommands(program: Command): void {
  program
    .command("msg <agent> <text...>")
    .description("leave a message in an agent's mailbox (sender: this pane's agent, else --from or 'user')")
    .option("--from <name>", "sender name")
    .action((agent: string, words: string[], options: { from?: string }) => {
      try {
        const dir = relay();
        if (dir) {
          // The server following this pane's agent leaves it, as this agent (--from is not taken from inside).
          writeRelayRequest(dir, { kind: "msg", to: agent, text: words.join(" ") });
          process.stdout.write(`message for ${agent} handed to termhive (from a sandbox: it is left once a termhive server following this pane picks it up)\n`);
          return;
        }
        const message = withHive((hive) => hive.mailbox.send(options.from ?? ownAgent(hive) ?? "user", agent, words.join(" ")));
        process.stdout.write(`message #${message.id} left for ${message.to}\n`);
      } catch (error) {
        fail(error);
      }
    });
  program
    .command("inbox")
    .description("print this pane's agent's unread messages and mark them read")
    .option("--agent <name>", "agent name (default: the agent of this pane)")
    .option("--all", "read messages too")
    .option("--peek", "do not mark them read")
    .action((options: { agent?: string; all?: boolean; peek?: boolean }) => {
      try {
        if (relay()) throw new HiveError("invalid", "termhive inbox cannot read the hive from inside a sandbox; messages for this agent are typed into its pane");
        const inbox = withHive((hive) => {
          const agent = options.agent ?? ownAgent(hive);
          if (!agent) throw new HiveError("unknown", "no agent is bound to this pane (TERMHIVE_SESSION); pass --agent <name>");
          const messages = hive.mailbox.read(agent, { unreadOnly: !options.all, markRead: !options.peek });
          return { agent, messages, unread_left: hive.mailbox.unreadCount(agent) };
        });
        process.stdout.write(hiveInbox.text(inbox) + "\n");
      } catch (error) {
        fail(error);
      }
    });
  program
    .command("status <status> [detail...]")
    .description("set this pane's agent status: starting | working | idle | waiting | error, with an optional detail")
    .option("--agent <name>", "agent name (default: the agent of this pane)")
    .action((status: string, detail: string[], options: { agent?: string }) => {
      try {
        const report = parseStatusArgs([status, ...detail]);
        const dir = relay();
        if (dir) {
          writeRelayRequest(dir, { kind: "status", args: [status, ...detail] });
          if (process.stdout.isTTY) process.stdout.write(encodeStatusOsc({ ...report, ...(process.env.TERMHIVE_AGENT ? { agent: process.env.TERMHIVE_AGENT } : {}) }));
          process.stdout.write(`${process.env.TERMHIVE_AGENT ?? "this pane"}: ${report.status}${report.detail ? ` (${report.detail})` : ""} (handed to termhive from a sandbox)\n`);
          return;
        }
        const agent = withHive((hive) => {
          const name = options.agent ?? ownAgent(hive);
          if (!name) throw new HiveError("unknown", "no agent is bound to this pane (TERMHIVE_SESSION); pass --agent <name>");
          return hive.applySelfStatus(name, report).agent;
        });
        if (process.stdout.isTTY) process.stdout.write(encodeStatusOsc({ ...report, agent: agent.name }));
        process.stdout.write(`${agent.name}: ${agent.status}${agent.statusDetail ? ` (${agent.statusDetail})` : ""}\n`);
      } catch (error) {
        fail(error);
      }
    });
}
