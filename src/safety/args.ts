// Small readers for command-line arguments, shared by the rules.

/** Options before `--`, split into short letters (`-rf` → r, f) and long names (`--force`). */
export function optionsOf(args: readonly string[]): { short: Set<string>; long: Set<string> } {
  const short = new Set<string>();
  const long = new Set<string>();
  for (const arg of args) {
    if (arg === "--") break;
    if (arg.startsWith("--")) long.add(arg.split("=")[0]!);
    else if (arg.startsWith("-") && arg.length > 1) for (const letter of arg.slice(1)) short.add(letter);
  }
  return { short, long };
}

/**
 * Arguments that are not options. `valueOptions` lists options whose value is the next
 * argument (`-n ns`, `--namespace ns`), so that value is not taken for a positional.
 */
export function positionalsOf(args: readonly string[], valueOptions: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") { out.push(...args.slice(i + 1)); break; }
    if (valueOptions.includes(arg)) { i++; continue; }
    if (arg.startsWith("-") && arg.length > 1) continue;
    out.push(arg);
  }
  return out;
}

/** `git -C dir -c k=v push …` → ["push", …]: the subcommand and what follows it. */
export function subcommandOf(args: readonly string[], globalValueOptions: readonly string[]): { name: string; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (globalValueOptions.includes(arg)) { i++; continue; }
    if (arg.startsWith("-")) continue;
    return { name: arg, rest: args.slice(i + 1) };
  }
  return { name: "", rest: [] };
}

/** Value of an option in any of its spellings: `-n x`, `-nx`, `--namespace x`, `--namespace=x`. */
export function hasOptionValue(args: readonly string[], short: string | null, long: string): boolean {
  return args.some((arg, i) =>
    (short !== null && arg === short && i + 1 < args.length) ||
    (short !== null && arg.startsWith(short) && !arg.startsWith("--") && arg.length > short.length) ||
    (arg === long && i + 1 < args.length) ||
    arg.startsWith(`${long}=`));
}
