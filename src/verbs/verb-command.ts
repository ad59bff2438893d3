// A verb's CLI form as a commander command: its name, arguments, options, --json and help.
// Shared by the two CLI doors (session-verbs.ts against the engine, pane-verbs.ts on the hive
// store); kept apart from both so the in-pane commands load neither the engine nor gRPC.
import { Option, type Command } from "commander";
import type { CliForm, CliOption } from "./verb.js";

function addOption(command: Command, option: CliOption): void {
  if (option instanceof Option) command.addOption(option);
  else if (option[2]) command.option(option[0], option[1], option[2]);
  else command.option(option[0], option[1]);
}

export function commandFor(program: Command, cli: CliForm<any, any>): Command {
  const command = program.command(cli.command).description(cli.description);
  for (const [syntax, description] of cli.args ?? []) command.argument(syntax, description);
  for (const option of cli.options ?? []) addOption(command, option);
  command.option("--json", "print JSON");
  if (cli.help) command.addHelpText("after", cli.help);
  return command;
}

/** commander calls an action with the arguments, then the options, then the command. */
export function actionParams(params: unknown[]): { args: unknown[]; options: Record<string, unknown> & { json?: boolean } } {
  return { args: params.slice(0, -2), options: params.at(-2) as Record<string, unknown> & { json?: boolean } };
}
