// The door of the panes on hosts: their in-pane `termhive` (src/shell/cli/termhive, a /bin/sh
// script: termhive is not installed there) leaves each request in a buffer of the host's own
// tmux server and types a word into termhive's signal pane, which this process's control
// client for that host sees (tmux-backend.ts, "hostAsked"). Here the request is taken, read
// with the very commands `termhive status / msg / inbox / hook` have locally (the verbs' CLI
// forms), run as the agent of the pane that left it, never as one it names, and answered
// through reply buffers the script waits on. Bounded as the sandbox relay is (sandbox/relay.ts,
// hive/relay/relay-mail-bound.ts): a request's size, a pace of mail per pane, unread mail per
// sender. Everything here is caught: a host's panes must not stop this process.
import { Command, CommanderError } from "commander";
import { z } from "zod";
import type { ServiceRoot } from "../service/root.js";
import type { Hosts, HostAsk } from "../backends/backend.js";
import { remotePaneId } from "../backends/remote/pane-ids.js";
import { HiveError, applyHookReport, holdPermission, hookChannelOf, noteHookConversation, hookOutcome, parseHookPayload, promptDigest, type Hive } from "../hive/index.js";
import { readInbox, type MailInput } from "../hive/ops/store-only.js";
import { RELAY_UNREAD_CAP, RelayMailPace } from "../hive/relay/relay-mail-bound.js";
import { RELAY_MAX_REQUEST_BYTES } from "../sandbox/relay.js";
import hiveMail from "../verbs/hive-mail.js";
import hiveInbox from "../verbs/hive-inbox.js";
import hiveStatus from "../verbs/hive-status.js";
import { cliFailure } from "../verbs/errors.js";
import type { StoreHive, Verb } from "../verbs/verb.js";
import { actionParams, commandFor } from "../verbs/verb-command.js";
import { traced } from "../util/traced.js";
import { ToolError } from "../util/tool-error.js";

/** A request buffer at most: the relay's bound on a request, hex-encoded (the script's encoding), and its framing. */
export const HOST_ASK_MAX_BYTES = 2 * RELAY_MAX_REQUEST_BYTES + 4096;
/** Passes over one host's requests are this far apart at least (the relay folder's pace: DRAIN_GAP_MS). */
const PASS_GAP_MS = 50;
const VERSION = "termhive-ask-v1";
/** A held permission request waits at most this long (the script waits as long and a little more). */
const MAX_HOLD_S = 3600;
/** Held at once per host, at most: an agent holds one at a time, a team a few. */
const MAX_HELD = 16;

export interface Reply {
  code: number;
  stdout: string;
  stderr: string;
}

const failed = (message: string, code = 1): Reply => ({ code, stdout: "", stderr: `termhive: ${message.replace(/\s*\n\s*/g, " ").trim()}\n` });

/** The request's arguments and stdin; a string when it is not one. */
export function parseAsk(text: string): { args: string[]; stdin: string | null } | string {
  const lines = text.split("\n");
  if (lines[0] !== VERSION) return `not a request of this termhive (it speaks ${VERSION}): the host's termhive script is from another version; open the pane again`;
  const decode = (line: string) => (/^(?:[0-9a-f]{2})*$/.test(line) ? Buffer.from(line, "hex").toString("utf8") : null);
  const args: string[] = [];
  let stdin: string | null = null;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "" && i === lines.length - 1) break;
    if (line === "-") {
      stdin = decode(lines[i + 1] ?? "");
      if (stdin === null) return "a malformed request (its payload is not hex)";
      break;
    }
    const arg = decode(line);
    if (arg === null) return "a malformed request (an argument is not hex)";
    args.push(arg);
  }
  return { args, stdin };
}

/**
 * Whether the request is a hook's, and whether it holds a permission request open (`hook
 * PermissionRequest --wait <s>`, whose script waits for the decision); other hooks' scripts
 * do not wait for an answer.
 */
export function hookKind(args: readonly string[]): "no" | "quiet" | "held" {
  if (args[0] !== "hook") return "no";
  const at = args.findIndex((a) => a === "--wait" || a.startsWith("--wait="));
  const value = at < 0 ? undefined : args[at] === "--wait" ? args[at + 1] : args[at]!.slice("--wait=".length);
  // The script's own reading (src/shell/cli/termhive): a whole number of seconds.
  return args[1] === "PermissionRequest" && value !== undefined && /^\d+$/.test(value) ? "held" : "quiet";
}

function kindOf(ask: HostAsk): "no" | "quiet" | "held" {
  const parsed = ask.text === null ? null : parseAsk(ask.text);
  return parsed === null || typeof parsed === "string" ? "no" : hookKind(parsed.args);
}

type PaneVerb = Verb<any, any, any>;
const PANE_VERBS: readonly PaneVerb[] = [hiveMail, hiveInbox, hiveStatus];

/** Who asks: the pane's session and its agent (null: a pane no agent is bound to). */
interface Asker {
  host: string;
  sessionName: string;
  agent: string | null;
}

export class HostDoor {
  private readonly mailPace = new RelayMailPace();
  private readonly passing = new Set<string>();
  private readonly again = new Set<string>();
  /** Permission requests held open per host now (each polls the store until answered). */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly root: ServiceRoot,
    private readonly hosts: Hosts,
  ) {}

  /** A host's panes asked: one pass at a time per host, another when more came meanwhile. */
  asked(host: string): void {
    if (this.passing.has(host)) {
      this.again.add(host);
      return;
    }
    this.passing.add(host);
    void this.pass(host).finally(() => {
      setTimeout(() => {
        this.passing.delete(host);
        if (this.again.delete(host)) this.asked(host);
      }, PASS_GAP_MS).unref();
    });
  }

  private async pass(host: string): Promise<void> {
    try {
      const { asks, more } = await this.hosts.takeAsks(host, HOST_ASK_MAX_BYTES);
      if (more) this.again.add(host);
      for (const ask of asks) {
        const kind = kindOf(ask);
        const tooMany = kind === "held" && (this.held.get(host) ?? 0) >= MAX_HELD;
        const answered = (tooMany ? Promise.resolve(failed(`${MAX_HELD} permission requests of host ${host} are held already; this one is not (the program shows its own dialog)`)) : this.answer(host, ask))
          .catch((error: unknown) => failed(cliFailure(error).message))
          .then(async (reply) => {
            if (reply.code !== 0) this.root.terminal.policy.audit.write({ event: "host-ask-refused", host, pane: ask.paneId, bytes: ask.bytes, reason: reply.stderr.trim() });
            // A hook's script is not waiting (src/shell/cli/termhive): an answer would stay in the host's tmux for good.
            if (kind !== "quiet") await this.hosts.answerAsk(host, ask.name, reply);
          });
        // A held permission request waits for hive_answer: the host's other requests do not wait with it.
        if (kind === "held") {
          this.held.set(host, (this.held.get(host) ?? 0) + 1);
          void answered.catch(traced(`answering a held permission request of host ${host}`)).finally(() => this.held.set(host, (this.held.get(host) ?? 1) - 1));
        } else await answered;
      }
    } catch (error) {
      traced(`taking the requests of host ${host}'s panes`)(error);
    }
  }

  /** What the pane's script prints and exits with. */
  async answer(host: string, ask: HostAsk): Promise<Reply> {
    if (ask.text === null) return failed(`this request takes ${Math.ceil(ask.bytes / 1024)} KiB in the host's tmux, over the limit of ${RELAY_MAX_REQUEST_BYTES / 1024} KiB a request (${HOST_ASK_MAX_BYTES / 1024} KiB written as hex); nothing was done`);
    const parsed = parseAsk(ask.text);
    if (typeof parsed === "string") return failed(parsed);
    const pane = remotePaneId(ask.paneId, host);
    const registry = this.root.terminal.registry;
    // A pane this process has not seen yet (opened by another termhive on the same home): the hive's listing first.
    if (!registry.byPane(pane)) await this.root.crew.sync();
    const session = registry.byPane(pane);
    if (!session) return failed(`pane ${ask.paneId} on host ${host} is not a session this termhive opened; nothing was done`);
    const agent = this.hive.agents.bySession(session.id)[0]?.name ?? null;
    return this.run(parsed.args, parsed.stdin, { host, sessionName: session.name, agent });
  }

  private get hive(): Hive {
    return this.root.crew.hive;
  }

  /** Runs the command line as `termhive` would in a local pane, with output captured. */
  private async run(args: string[], stdin: string | null, asker: Asker): Promise<Reply> {
    let stdout = "";
    let stderr = "";
    let code = 0;
    const program = new Command("termhive")
      .exitOverride()
      .configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
    const act = (work: (options: Record<string, unknown>) => Promise<string>) => async (...params: unknown[]) => {
      const { options } = actionParams(params);
      try {
        stdout += await work(options);
      } catch (error) {
        const failure = cliFailure(error);
        code = failure.exit;
        const message = failure.message.replace(/\s*\n\s*/g, " ").trim();
        if (options.json) stdout += JSON.stringify({ error: message, code: failure.code }) + "\n";
        else stderr += `termhive: ${message}\n`;
      }
    };
    for (const verb of PANE_VERBS) {
      const cli = verb.cli!;
      commandFor(program, cli).action(async (...params: unknown[]) => {
        const { args: given } = actionParams(params);
        await act((options) => this.runVerb(verb, { ...cli.input(given as never, options) }, options.json === true, asker))(...params);
      });
    }
    program
      .command("hook <event> [payload]")
      .option("--status <status>")
      .option("--agent <name>")
      .option("--wait <seconds>")
      .action(async (...params: unknown[]) => {
        const [event, payload, options] = params as [string, string | undefined, { status?: string; agent?: string; wait?: string }];
        await act(() => this.hook(event, payload ?? stdin ?? "", options, asker))(...params);
      });
    try {
      await program.parseAsync(args, { from: "user" });
    } catch (error) {
      if (error instanceof CommanderError) return { code: error.exitCode, stdout, stderr };
      return failed(cliFailure(error).message);
    }
    return { code, stdout, stderr };
  }

  private async runVerb(verb: PaneVerb, given: Record<string, unknown>, json: boolean, asker: Asker): Promise<string> {
    const cli = verb.cli!;
    const own = cli.inPane!.ownAgent as string;
    const acting = asker.agent ?? (own === "from" ? `pane:${asker.sessionName}` : null);
    if (given[own] !== undefined && given[own] !== acting) {
      throw new HiveError("invalid", `a pane on host ${asker.host} acts as its own agent (${acting ?? "none is bound to it"}) only: --${own} ${String(given[own])} is refused; nothing was done`);
    }
    if (acting === null) throw new HiveError("unknown", `no agent is bound to this pane (session ${asker.sessionName} on host ${asker.host})`);
    given[own] = acting;
    const input = z.object(verb.input).parse(given);
    const result = await verb.run({ hive: () => this.storeHive(asker) }, input, { clientId: `host:${asker.host}` });
    return json ? JSON.stringify(result) + "\n" : (cli.text ?? verb.text)(result).replace(/\n?$/, "\n");
  }

  /** The hive as a host pane reaches it: mail bounded as from a sandbox, status through the pane this process follows. */
  private storeHive(asker: Asker): StoreHive {
    const folder = `${asker.host}\0${asker.sessionName}`;
    return {
      mail: async (input: MailInput) => {
        if (input.type_into_pane) throw new HiveError("invalid", "typing a message into a pane is not done from a host's pane: use the hive_mail tool with type_into_pane");
        const overPace = this.mailPace.admit(folder, Buffer.byteLength(input.text));
        if (overPace) throw new ToolError(`${overPace}; nothing was sent`, "unavailable");
        return { message: this.hive.mailbox.send(input.from ?? "user", input.to, input.text, RELAY_UNREAD_CAP) };
      },
      inbox: async (input: { agent: string; all?: boolean; peek?: boolean; limit?: number }) => readInbox(this.hive, input),
      setStatus: (input: { agent: string; status: string; detail?: string }) => this.root.hive.setStatus(input),
    } as unknown as StoreHive;
  }

  /** `termhive hook`: the program's own report (cli/hook.ts), as the pane's agent; what it prints. */
  private async hook(event: string, payloadText: string, options: { status?: string; agent?: string; wait?: string }, asker: Asker): Promise<string> {
    if (!options.status) throw new HiveError("invalid", "termhive hook needs --status <working|idle|waiting_for_input|error|exited>");
    if (options.agent !== undefined && options.agent !== asker.agent) throw new HiveError("invalid", `a pane on host ${asker.host} reports for its own agent only: --agent ${options.agent} is refused`);
    if (!asker.agent) throw new HiveError("unknown", `no agent is bound to this pane (session ${asker.sessionName} on host ${asker.host})`);
    const payload = parseHookPayload(payloadText);
    // Codex's title threads are told apart by its thread files, which are on the host: every thread
    // counts as the main one for its status (notify is read only where hooks are off).
    const outcome = hookOutcome(event, options.status, payload, { isMainThread: () => true });
    if ("ignored" in outcome) return "";
    noteHookConversation(this.hive, asker.agent, payload);
    const waitS = options.wait === undefined ? 0 : Number(options.wait);
    if (event === "PermissionRequest" && Number.isInteger(waitS) && waitS > 0) return (await holdPermission(this.hive, asker.agent, payload, Math.min(waitS, MAX_HOLD_S))) ?? "";
    const digest = event === "UserPromptSubmit" && typeof payload.prompt === "string" ? { promptDigest: promptDigest(payload.prompt) } : {};
    applyHookReport(this.hive, asker.agent, { event, status: outcome.status, detail: outcome.detail ?? null, endsTurn: outcome.endsTurn === true, firedAt: Date.now(), channel: hookChannelOf(payload), ...digest });
    return "";
  }
}

/** Follows the requests of every host's panes for this process's root; returns what stops it. */
export function followHostAsks(root: ServiceRoot): { dispose(): void } {
  const backend = root.terminal.backend;
  const hosts = backend.hosts;
  if (!hosts) return { dispose() {} };
  const door = new HostDoor(root, hosts);
  const listener = (host: string) => door.asked(host);
  backend.on("hostAsked", listener);
  return { dispose: () => backend.off("hostAsked", listener) };
}
