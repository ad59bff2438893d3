// The CLI's commands for a person at a shell (one file per concern); cli.ts registers them in one line.
import type { Command } from "commander";
import { registerAttach } from "./attach.js";
import { registerCleanupVerbs } from "./cleanup-verbs.js";
import { registerDoctor } from "./doctor.js";
import { registerDashboard } from "../dashboard/command.js";
import { registerServe } from "./serve.js";
import { registerSessionVerbs } from "./session-verbs.js";
import { registerHook } from "./hook.js";
import { registerAnswer } from "./answer.js";
import { registerRestore } from "./restore.js";

export function registerCliVerbs(program: Command): void {
  registerServe(program);
  registerSessionVerbs(program);
  registerCleanupVerbs(program);
  registerAttach(program);
  registerDoctor(program);
  registerHook(program);
  registerRestore(program);
  registerDashboard(program);
  registerAnswer(program);
}
