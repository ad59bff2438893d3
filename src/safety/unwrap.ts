// Peels "wrapper" programs off a command so rules judge what really runs:
// `sudo -u root env FOO=1 nohup nice -n 5 rm -rf /` is judged as `rm -rf /`.
// Each wrapper is described by which of its options take a value and how many
// positionals come before the wrapped command; that is all it takes to find it.
import type { ShellWord } from "./command.js";

interface WrapperSpec {
  /** Short options that take a value (`-u root` or `-uroot`). */
  short?: string;
  /** Long options that take a value when written without `=` (`--user root`). */
  long?: string[];
  /** `NAME=value` arguments are part of the wrapper (env). */
  assignments?: boolean;
  /** Positionals that belong to the wrapper before the command (timeout's duration). */
  positionals?: number;
  /** Options after which there is no wrapped command (`command -v x` only looks it up). */
  noCommandWith?: string[];
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { short: "ugphCDrtUTR", long: ["--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type", "--other-user", "--command-timeout", "--chroot"], noCommandWith: ["-l", "--list", "-v", "--validate", "-k", "-K", "-e", "--edit", "-V"] },
  doas: { short: "uC" },
  env: { short: "uCS", long: ["--unset", "--chdir", "--split-string"], assignments: true },
  nohup: {},
  setsid: {},
  builtin: {},
  unbuffer: {},
  exec: { short: "a" },
  command: { noCommandWith: ["-v", "-V"] },
  time: { short: "fo", long: ["--format", "--output"] },
  nice: { short: "n", long: ["--adjustment"] },
  ionice: { short: "cnpPu", long: ["--class", "--classdata"], noCommandWith: ["-p", "-P", "-u"] },
  stdbuf: { short: "ioe", long: ["--input", "--output", "--error"] },
  timeout: { short: "sk", long: ["--signal", "--kill-after"], positionals: 1 },
  chrt: { positionals: 1, noCommandWith: ["-p", "--pid"] },
  taskset: { positionals: 1, noCommandWith: ["-p", "--pid"] },
  chroot: { positionals: 1 },
  flock: { short: "wEn", long: ["--timeout", "--conflict-exit-code"], positionals: 1 },
  strace: { short: "oepsuEabIOPSX" },
  xargs: { short: "adEILnPs", long: ["--arg-file", "--delimiter", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"] },
};

export function programName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash >= 0 ? word.slice(slash + 1) : word;
}

export function isAssignment(text: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(text);
}

/** Index of the wrapped command in `args`, or -1 when the wrapper runs nothing. */
function wrappedCommandIndex(args: readonly ShellWord[], spec: WrapperSpec): number {
  const short = spec.short ?? "";
  const long = new Set(spec.long ?? []);
  let i = 0;
  while (i < args.length) {
    const arg = args[i]!.text;
    if (arg === "--") { i++; break; }
    if (spec.noCommandWith?.includes(arg)) return -1;
    if (spec.assignments && isAssignment(arg)) { i++; continue; }
    if (arg.startsWith("--")) {
      i += long.has(arg) ? 2 : 1;
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      // A short cluster: the first option that takes a value swallows the rest of the
      // cluster, or the next argument when it ends the cluster.
      let takesNext = false;
      for (let j = 1; j < arg.length; j++) {
        if (short.includes(arg[j]!)) { takesNext = j === arg.length - 1; break; }
      }
      i += takesNext ? 2 : 1;
      continue;
    }
    break;
  }
  i += spec.positionals ?? 0;
  return i < args.length ? i : -1;
}

export interface Unwrapped {
  program: string;
  /** False when the program's name holds an expansion the gate could not resolve (`$r`, `$(…)`). */
  literal: boolean;
  words: ShellWord[];
  wrappers: string[];
}

/** `words[0]` is the program as written. */
export function unwrap(words: readonly ShellWord[]): Unwrapped {
  let rest = [...words];
  const wrappers: string[] = [];
  // Bounded: a wrapper chain longer than this is not a real command line.
  for (let depth = 0; depth < 16 && rest.length > 0; depth++) {
    const name = programName(rest[0]!.text);
    const spec = WRAPPERS[name];
    if (!spec) break;
    const index = wrappedCommandIndex(rest.slice(1), spec);
    if (index < 0) break;
    wrappers.push(name);
    rest = rest.slice(index + 1);
    // `flock FILE -c 'cmd'` runs cmd through sh -c.
    if (name === "flock" && (rest[0]?.text === "-c" || rest[0]?.text === "--command")) {
      rest = [{ text: "sh", literal: true }, { text: "-c", literal: true }, ...rest.slice(1)];
    }
  }
  const [first, ...args] = rest;
  return { program: first ? programName(first.text) : "", literal: first?.literal ?? true, words: args, wrappers };
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"]);
export const isShell = (program: string): boolean => SHELLS.has(program);

/** Shell text a command runs as a script: `bash -c '…'`, `eval …`, `su -c '…'`, `watch '…'`, `ssh host '…'`. */
export function nestedScript(program: string, args: readonly string[]): string | undefined {
  if (SHELLS.has(program)) return shellDashC(program === "busybox" && args[0] === "sh" ? args.slice(1) : args);
  switch (program) {
    case "eval":
      return args.length ? args.join(" ") : undefined;
    case "su":
      return valueOfOption(args, ["-c", "--command"]);
    case "watch":
      return afterOptions(args, "n", ["--interval"], 0);
    case "ssh":
      return afterOptions(args, "BbcDEeFIiJLlmOoPpRSWw", [], 1);
    default:
      return /^(python[\d.]*|perl|ruby|node|php)$/.test(program) ? shellStringsInCode(args) : undefined;
  }
}

/**
 * The string literals a one-liner hands to a shell: `os.system("…")`, `subprocess.run("…",
 * shell=True)`, perl's `system q(…)` or backquotes, node's `execSync('…')`. Only literal strings
 * straight after the call; a command built from pieces or passed as a list is not read.
 */
const SHELL_CALL = /\b(?:system|popen|exec|execSync|spawnSync|check_output|check_call|call|run|Popen|passthru|shell_exec)\s*\(?\s*(?:q[qx]?\s*[({[]([^)}\]]*)[)}\]]|'([^']*)'|"([^"]*)"|`([^`]*)`)|`([^`]*)`/g;
function shellStringsInCode(args: readonly string[]): string | undefined {
  const code = args.find((arg, i) => i > 0 && /^-[cer]$|^--eval$/.test(args[i - 1]!));
  if (code === undefined) return undefined;
  const found = [...code.matchAll(SHELL_CALL)].map((m) => m.slice(1).find((g) => g !== undefined) ?? "");
  return found.length ? found.join("\n") : undefined;
}

function shellDashC(args: readonly string[]): string | undefined {
  let sawC = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return sawC ? args[i + 1] : undefined;
    if (arg === "-o" || arg === "+o" || arg === "-O" || arg === "+O") { i++; continue; }
    if (arg === "--command" || arg === "-command") return args[i + 1];
    if (arg.startsWith("--")) continue;
    if ((arg.startsWith("-") || arg.startsWith("+")) && arg.length > 1) {
      if (arg.slice(1).includes("c")) sawC = true;
      continue;
    }
    return sawC ? arg : undefined; // without -c the first positional is a script file
  }
  return undefined;
}

function valueOfOption(args: readonly string[], names: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (names.includes(arg)) return args[i + 1];
    for (const name of names) if (name.startsWith("--") && arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}

function afterOptions(args: readonly string[], short: string, long: string[], positionals: number): string | undefined {
  const index = wrappedCommandIndex(args.map((text) => ({ text, literal: true })), { short, long, positionals });
  return index >= 0 ? args.slice(index).join(" ") : undefined;
}
