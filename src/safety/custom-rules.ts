// Rules added by the user through TERMHIVE_SAFETY_RULES=/path/rules.json.
//
// ---- README: custom safety rules ---------------------------------------------------
// TERMHIVE_SAFETY_RULES points at a JSON file:
//
//   {
//     "rules": [
//       {
//         "name": "npm-publish",
//         "reason": "publishes a package to the registry, which cannot be undone",
//         "program": "npm",
//         "args": "^publish\\b",
//         "unlessArgs": "--dry-run"
//       },
//       { "name": "no-docker-prune", "reason": "removes all unused images", "program": ["docker", "podman"], "args": "\\b(system|image) prune\\b" }
//     ]
//   }
//
// - name (required): lowercase letters, digits and dashes; must not repeat a built-in name.
//   It is what a refusal reports and what TERMHIVE_SAFETY_DISABLE accepts.
// - reason (required): one sentence shown to the model with the refusal.
// - program (required): a program name or a list of them, matched exactly against the
//   command that really runs: the path is dropped (/usr/bin/npm → npm) and wrappers are
//   peeled off (sudo, doas, env VAR=x, nohup, time, nice, timeout, xargs, exec, …), and
//   scripts inside `bash -c '…'`, `sh -c`, `eval`, `su -c`, `ssh host '…'` are checked too.
// - args (optional): a JavaScript regular expression tested against the arguments after
//   the program, quotes removed, joined by single spaces. Absent: any arguments match.
// - unlessArgs (optional): a regular expression; when it matches the arguments, the rule
//   does not apply (e.g. a --dry-run flag, or a namespace option).
// - ignoreCase (optional, default false): both regular expressions ignore case.
// A matching command is refused with the rule's name and reason unless resent with
// `confirm: true`, exactly like a built-in rule. Rules match parsed commands, never raw
// text, so `echo "npm publish"` does not match the example above.
// -------------------------------------------------------------------------------------
import { SafeRegex } from "../util/regex.js";
import { RegexPacer } from "../util/regex-pacer.js";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { commandRule, type Rule } from "./rules.js";
import type { SimpleCommand } from "./command.js";

export class SafetyConfigError extends Error {
  override name = "SafetyConfigError";
}

const RULE_NAME = /^[a-z0-9][a-z0-9-]*$/;

// A rule's patterns are user regexes: the linear engine (RE2 syntax), as every user regex.
const regexString = z.string().min(1).superRefine((source, ctx) => {
  try {
    new SafeRegex(source, "rule");
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `is not a valid regular expression (${(error as Error).message})` });
  }
});

const ruleSchema = z.object({
  name: z.string().regex(RULE_NAME, { message: "must be lowercase letters, digits and dashes (e.g. \"npm-publish\")" }),
  reason: z.string().min(1),
  program: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  args: regexString.optional(),
  unlessArgs: regexString.optional(),
  ignoreCase: z.boolean().optional(),
}).strict();

const fileSchema = z.object({ rules: z.array(ruleSchema) }).strict();

export type CustomRuleSpec = z.infer<typeof ruleSchema>;

export function compileCustomRule(spec: CustomRuleSpec): Rule {
  const programs = new Set(Array.isArray(spec.program) ? spec.program : [spec.program]);
  const flags = spec.ignoreCase ? "i" : "";
  const args = spec.args ? new SafeRegex(spec.args, "args", flags) : null;
  const unless = spec.unlessArgs ? new SafeRegex(spec.unlessArgs, "unlessArgs", flags) : null;
  const rule = commandRule(spec.name, spec.reason, (command) => {
    if (!programs.has(command.program)) return false;
    const joined = command.args.join(" ");
    return (!args || args.test(joined)) && !(unless && unless.test(joined));
  });
  // The gate's way: the same answers, but a long command line's arguments are matched paced
  // or in a worker (RegexPacer), so one command never holds other clients' calls.
  const matchesPaced = async (command: SimpleCommand, pacer: RegexPacer): Promise<boolean> => {
    if (!programs.has(command.program)) return false;
    const joined = command.args.join(" ");
    if (args && (await pacer.exec(args, joined)) === null) return false;
    return !(unless && (await pacer.exec(unless, joined)) !== null);
  };
  return {
    ...rule,
    async findAsync(script) {
      const pacer = new RegexPacer();
      const found: string[] = [];
      for (const command of script.commands) if (await matchesPaced(command, pacer)) found.push(command.segment);
      return found;
    },
  };
}

/** Reads and validates a rules file; every problem names the file and the field. */
export function loadCustomRules(path: string, reservedNames: ReadonlySet<string>): Rule[] {
  const where = `TERMHIVE_SAFETY_RULES (${path})`;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new SafetyConfigError(`${where}: cannot read the file: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SafetyConfigError(`${where}: not valid JSON: ${(error as Error).message}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new SafetyConfigError(`${where}: ${problems.join("; ")} (expected {"rules": [{"name", "reason", "program", "args"?, "unlessArgs"?, "ignoreCase"?}]})`);
  }
  const seen = new Set<string>();
  parsed.data.rules.forEach((spec, index) => {
    if (reservedNames.has(spec.name)) throw new SafetyConfigError(`${where}: rules[${index}].name "${spec.name}" is already a built-in rule; choose another name`);
    if (seen.has(spec.name)) throw new SafetyConfigError(`${where}: rules[${index}].name "${spec.name}" appears twice`);
    seen.add(spec.name);
  });
  return parsed.data.rules.map(compileCustomRule);
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(top level)";
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i ? "." : ""}${String(key)}`)).join("");
}
