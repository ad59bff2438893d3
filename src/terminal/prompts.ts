// Prompts of programs that run inside a session without termhive's shell integration:
// REPLs, database shells and remote shells. Matched against the cursor's line, up to the cursor.

export const NESTED_PROMPTS: { name: string; pattern: RegExp }[] = [
  { name: "python", pattern: /^(>>>|\.\.\.) $/ },
  { name: "ipython", pattern: /^(In \[\d+\]|\s+\.\.\.): $/ },
  { name: "pdb", pattern: /^\((Pdb|ipdb)\) $/ },
  { name: "node", pattern: /^(>|\.\.\.) $/ },
  { name: "psql", pattern: /^[\w.-]*[=\-('"][#>] $/ },
  { name: "mysql", pattern: /^(mysql|mariadb|MariaDB \[[^\]]*\])> $/ },
  { name: "sqlite", pattern: /^(sqlite>|   \.\.\.>) $/ },
  { name: "redis", pattern: /^[\w.:-]+(\[\d+\])?> $/ },
  { name: "irb", pattern: /^irb\([^)]*\):\d+:\d+[>*"'] $/ },
  { name: "gdb", pattern: /^\((gdb|lldb)\) $/ },
  { name: "lua", pattern: /^>>? $/ },
  { name: "ghci", pattern: /^(ghci|Prelude[^>]*)> $/ },
  // A shell without integration (ssh host, sudo -i, docker exec): user@host:path$ or a bare # / $ / %.
  { name: "shell", pattern: /(^|[\w@:~\/\]\)\-.])[$#%] $|^[$#%>] $/ },
];

export function matchNestedPrompt(cursorLine: string): string | undefined {
  for (const { name, pattern } of NESTED_PROMPTS) if (pattern.test(cursorLine)) return name;
  return undefined;
}
