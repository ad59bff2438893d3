// Does an agent's command line turn the agent's own permission checks off? Judged on the
// parsed command (safety/parse.ts: quotes resolved, `sh -c '…'` and wrappers such as env,
// exec, nohup followed), never on the text: every simple command in it is looked at, each
// option in each of its spellings (`--opt value`, `--opt=value`, `-xvalue`). Two sources:
// a profile's `dangerousFlags` (any program), and what the known agent programs accept that
// a list of flags cannot say: Claude Code's settings JSON and tool allow list, Codex's config
// overrides.
import { parseScript } from "../safety/parse.js";
import type { SimpleCommand } from "../safety/command.js";

/** Does `args` carry the option `name` with `value` (`--o v`, `--o=v`, `-o v`, `-ov`, `-o=v`)? */
function hasOption(args: readonly string[], name: string, value: string | null): boolean {
  return args.some((arg, i) => {
    if (value === null) return arg === name;
    if (arg === name && args[i + 1] === value) return true;
    if (arg === `${name}=${value}`) return true;
    // A short option's value may be attached: -sdanger-full-access.
    return /^-[^-]$/.test(name) && arg === `${name}${value}`;
  });
}

/** Every value given to the option (`--o v`, `--o=v`, `-ov` for a short one). */
function optionValues(args: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((arg, i) => {
    for (const name of names) {
      if (arg === name && i + 1 < args.length) values.push(args[i + 1]!);
      else if (arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
      else if (/^-[^-]$/.test(name) && arg.startsWith(name) && arg.length > 2) values.push(arg.slice(2));
    }
  });
  return values;
}

/** Claude Code's `--allowedTools a b …` is variadic: its values run to the next option. */
function variadicValues(args: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = names.find((n) => arg === n || arg.startsWith(`${n}=`));
    if (!name) continue;
    if (arg !== name) values.push(arg.slice(name.length + 1));
    for (let k = i + 1; k < args.length && !args[k]!.startsWith("-"); k++) values.push(args[k]!);
  }
  return values;
}

/** A tool rule that lets every shell command run without asking: Bash, Bash(*), Bash(:*), Bash(*:*). */
const ANY_BASH = /^Bash(\((\*|:\*|\*:\*)?\))?$/;

function anyBashRule(rules: unknown): boolean {
  return Array.isArray(rules) && rules.some((r) => typeof r === "string" && ANY_BASH.test(r.trim()));
}

/** Claude Code settings given inline (`--settings '{…}'`) that switch its checks off. */
function settingsTurnChecksOff(value: string): boolean {
  if (!value.trim().startsWith("{")) return false; // a settings file: not read here (docs/limits.md)
  try {
    const settings = JSON.parse(value) as { permissions?: { defaultMode?: unknown; allow?: unknown } };
    return settings.permissions?.defaultMode === "bypassPermissions" || anyBashRule(settings.permissions?.allow);
  } catch {
    // Not JSON to Claude Code either: it refuses to start. Named anyway when it says so.
    return value.includes("bypassPermissions");
  }
}

function claudeChecksOff(args: readonly string[]): string[] {
  const found: string[] = [];
  if (optionValues(args, ["--settings"]).some(settingsTurnChecksOff)) found.push("--settings with bypassPermissions or every Bash command allowed");
  const tools = variadicValues(args, ["--allowedTools", "--allowed-tools"]).flatMap((v) => v.split(/[\s,]+/).filter(Boolean));
  if (anyBashRule(tools)) found.push("--allowedTools allowing every Bash command");
  if (optionValues(args, ["--permission-mode"]).includes("bypassPermissions")) found.push("--permission-mode bypassPermissions");
  if (args.includes("--dangerously-skip-permissions")) found.push("--dangerously-skip-permissions");
  // "Enable bypassing all permission checks as an option": one Shift+Tab (a hive_send key) turns it on.
  if (args.includes("--allow-dangerously-skip-permissions")) found.push("--allow-dangerously-skip-permissions");
  return found;
}

const unquote = (v: string) => v.trim().replace(/^(["'])(.*)\1$/, "$2");

function codexChecksOff(args: readonly string[]): string[] {
  const found: string[] = [];
  if (optionValues(args, ["--sandbox", "-s"]).map(unquote).includes("danger-full-access")) found.push("--sandbox danger-full-access");
  const overrides = optionValues(args, ["--config", "-c"]).map((kv) => {
    const eq = kv.indexOf("=");
    return eq < 0 ? null : { key: kv.slice(0, eq).trim(), value: unquote(kv.slice(eq + 1)) };
  });
  if (overrides.some((o) => o?.key === "sandbox_mode" && o.value === "danger-full-access")) found.push("-c sandbox_mode=danger-full-access");
  for (const flag of ["--dangerously-bypass-approvals-and-sandbox", "--yolo"]) if (args.includes(flag)) found.push(flag);
  return found;
}

/** What the known agent programs are told, in any spelling, that turns their own checks off. */
const PROGRAMS: Record<string, (args: readonly string[]) => string[]> = { claude: claudeChecksOff, codex: codexChecksOff };

function judge(command: SimpleCommand, flags: readonly string[]): string[] {
  // A program named by a variable the line does not set (`$c --dangerously-skip-permissions`)
  // may be any agent: every known agent's checks apply.
  const judges = command.opaqueProgram ? Object.values(PROGRAMS) : [PROGRAMS[command.program] ?? (() => [])];
  const found = judges.flatMap((judgeArgs) => judgeArgs(command.args));
  for (const flag of flags) {
    const [name, ...rest] = flag.trim().split(/\s+/);
    if (name && hasOption(command.args, name, rest.length ? rest.join(" ") : null)) found.push(flag);
  }
  return found;
}

/**
 * The ways `command` turns an agent's own checks off: the profile's `flags` found on any
 * program it runs, and the known agents' settings. Empty when there is none.
 */
export function checksTurnedOff(command: string | undefined, flags: readonly string[]): string[] {
  if (!command?.trim()) return [];
  const found = new Set<string>();
  for (const c of parseScript(command).commands) for (const f of judge(c, flags)) found.add(f);
  return [...found];
}
