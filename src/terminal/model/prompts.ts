// Prompts of programs that run inside a session without termhive's shell integration:
// REPLs, database shells and remote shells. Matched against the cursor's line, up to the cursor.

export interface NestedPrompt {
  name: string;
  pattern: RegExp;
  /**
   * The part of `pattern` that is the program's continuation prompt: it waits for more of a
   * statement (an open block, bracket or string), so nothing has run yet.
   */
  continuation?: RegExp;
}

export const NESTED_PROMPTS: NestedPrompt[] = [
  { name: "python", pattern: /^(>>>|\.\.\.) $/, continuation: /^\.\.\. $/ },
  { name: "ipython", pattern: /^(In \[\d+\]|\s+\.\.\.): $/, continuation: /^\s+\.\.\.: $/ },
  { name: "pdb", pattern: /^\((Pdb|ipdb)\) $/ },
  { name: "node", pattern: /^(>|\.\.\.) $/, continuation: /^\.\.\. $/ },
  { name: "psql", pattern: /^[\w.-]*[=\-('"][#>] $/, continuation: /^[\w.-]*[\-('"][#>] $/ },
  { name: "mysql", pattern: /^(mysql|mariadb|MariaDB \[[^\]]*\])> $/ },
  { name: "sqlite", pattern: /^(sqlite>|   \.\.\.>) $/, continuation: /^   \.\.\.> $/ },
  { name: "redis", pattern: /^[\w.:-]+(\[\d+\])?> $/ },
  { name: "irb", pattern: /^irb\([^)]*\):\d+:\d+[>*"'] $/, continuation: /[*"'] $/ },
  { name: "gdb", pattern: /^\((gdb|lldb)\) $/ },
  { name: "lua", pattern: /^>>? $/, continuation: /^>> $/ },
  { name: "ghci", pattern: /^(ghci|Prelude[^>]*)> $/ },
  // A shell without integration (ssh host, sudo -i, docker exec): user@host:path$ or a bare # / $ / %.
  { name: "shell", pattern: /(^|[\w@:~\/\]\)\-.])[$#%] $|^[$#%>] $/ },
];

export function matchNestedPrompt(cursorLine: string): string | undefined {
  return findNestedPrompt(cursorLine)?.name;
}

function findNestedPrompt(cursorLine: string): NestedPrompt | undefined {
  return NESTED_PROMPTS.find(({ pattern }) => pattern.test(cursorLine));
}

/** The REPL whose continuation prompt is on the cursor line (it waits for more of a statement). */
export function matchContinuationPrompt(cursorLine: string): string | undefined {
  const found = findNestedPrompt(cursorLine);
  return found?.continuation?.test(cursorLine) ? found.name : undefined;
}

/**
 * Continuation prompts at which a blank line ends what was typed: Python's `... ` (a compound
 * statement ends with an empty line, as a person types it). REPLs that share that prompt and
 * wait for a bracket or a `;` (node) take a blank line as nothing.
 */
export function blankLineEndsBlock(cursorLine: string): boolean {
  return /^\.\.\. $/.test(cursorLine);
}
