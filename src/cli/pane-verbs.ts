// The CLI door of the commands an agent runs in its own pane: termhive msg / inbox / status,
// the CLI forms of hive_mail / hive_inbox / hive_status (their `cli.inPane`). They run on the
// hive store alone (pane-hive.ts): no server, tmux, backend or gRPC, because an agent's hooks
// run them every turn, with or without a termhive server. The input is checked with the verb's
// schema, as at every door. In a sandboxed pane the store is out of reach: the command leaves
// a relay request instead (sandbox/relay.ts), which the server following the pane applies.
import type { Command } from "commander";
import { z } from "zod";
import { loadConfig } from "../config.js";
import { HiveError } from "../hive/store/errors.js";
import { RELAY_ENV, writeRelayRequest } from "../sandbox/relay.js";
import hiveMail from "../verbs/hive-mail.js";
import hiveInbox from "../verbs/hive-inbox.js";
import hiveStatus from "../verbs/hive-status.js";
import type { CliForm, InPaneForm, StoreServices, Verb } from "../verbs/verb.js";
import { fail, print } from "./output.js";
import { PaneHive } from "./pane-hive.js";
import { actionParams, commandFor } from "../verbs/verb-command.js";

/** The verbs whose CLI form runs in a pane; their run takes the hive store alone (checked here by type). */
export const PANE_VERBS: readonly Verb<any, any, StoreServices>[] = [hiveMail, hiveInbox, hiveStatus];

type PaneVerb = (typeof PANE_VERBS)[number];

/** In a sandboxed pane: the relay request instead of the verb (the pane's own agent is the server's to fill in). */
function relayFrom(dir: string, verb: PaneVerb, pane: InPaneForm<any, any>, given: Record<string, unknown>, json: boolean | undefined): void {
  if (!pane.relay) throw new HiveError("invalid", pane.refusedInSandbox ?? `termhive ${verb.cli!.command} cannot run inside a sandbox`);
  const { [pane.ownAgent]: _notFromInside, ...shape } = verb.input;
  const handed = pane.relay(z.object(shape).parse(given), process.env.TERMHIVE_AGENT || null);
  writeRelayRequest(dir, handed.request);
  if (!json && handed.tty && process.stdout.isTTY) process.stdout.write(handed.tty);
  print(json, { relayed: handed.request }, () => handed.text);
}

async function runInPane(verb: PaneVerb, cli: CliForm<any, any>, pane: InPaneForm<any, any>, given: Record<string, unknown>, json: boolean | undefined): Promise<void> {
  const hive = new PaneHive(loadConfig().home);
  try {
    if (given[pane.ownAgent] === undefined) {
      const own = hive.ownAgent() ?? pane.otherwise;
      if (own === undefined) throw new HiveError("unknown", `no agent is bound to this pane (TERMHIVE_SESSION); pass --${pane.ownAgent} <name>`);
      given[pane.ownAgent] = own;
    }
    const input = z.object(verb.input).parse(given);
    const result = await verb.run({ hive: () => hive }, input, { clientId: "cli" });
    if (!json && pane.tty && process.stdout.isTTY) process.stdout.write(pane.tty(input, result));
    print(json, result, () => (cli.text ?? verb.text)(result));
  } finally {
    hive.close();
  }
}

function registerPaneVerb(program: Command, verb: PaneVerb): void {
  const cli = verb.cli!;
  const pane = cli.inPane!;
  commandFor(program, cli).action(async (...params: unknown[]) => {
    const { args, options } = actionParams(params);
    const given: Record<string, unknown> = { ...cli.input(args as never, options) };
    try {
      const relay = process.env[RELAY_ENV];
      if (relay) relayFrom(relay, verb, pane, given, options.json);
      else await runInPane(verb, cli, pane, given, options.json);
    } catch (error) {
      fail(options.json, error);
    }
  });
}

export function registerPaneVerbs(program: Command): void {
  for (const verb of PANE_VERBS) registerPaneVerb(program, verb);
}
