// What the rules see: a shell script reduced to simple commands, pipelines, redirections
// and function definitions, with quoting already resolved. Rules never see raw text, so
// `echo "rm -rf /"` is an `echo` with one argument, not an `rm`.

/** One shell word after quote removal. */
export interface ShellWord {
  /** The value with quotes removed; expansions kept as written (`$HOME`, `$(…)`). */
  text: string;
  /** False when the word contains an expansion, so its runtime value is unknown. */
  literal: boolean;
}

export interface SimpleCommand {
  /** Effective program name (basename, after unwrapping sudo/env/xargs/nohup/time…). */
  program: string;
  /** Set when the program's name comes from an expansion the gate could not resolve. */
  opaqueProgram?: boolean;
  /** Arguments after the program, quotes removed. */
  args: string[];
  /** The same arguments with literal-ness. */
  words: ShellWord[];
  /** Wrappers that were peeled off, outermost first (e.g. ["sudo", "env"]). */
  wrappers: string[];
  /** Text fed to the command's stdin by a heredoc or here-string, if any. */
  stdinText?: string;
  /** The source text of the statement, as shown in a violation. */
  segment: string;
}

export interface Redirection {
  /** True when the redirection writes to its target (`>`, `>>`, `&>`, `<>`…). */
  writes: boolean;
  target: string;
  segment: string;
}

export interface FunctionDefinition {
  name: string;
  /** Commands that the body runs, with how they run. */
  calls: { program: string; inPipeline: boolean; background: boolean }[];
  segment: string;
}

export interface ParsedScript {
  commands: SimpleCommand[];
  /** Every pipeline of two or more stages, stages in order. */
  pipelines: { stages: (SimpleCommand | null)[]; segment: string }[];
  redirections: Redirection[];
  functions: FunctionDefinition[];
  /** Set when the real parser rejected (part of) the text and the token fallback was used. */
  parseError?: string;
}

export function emptyScript(): ParsedScript {
  return { commands: [], pipelines: [], redirections: [], functions: [] };
}

export function mergeInto(target: ParsedScript, source: ParsedScript): void {
  target.commands.push(...source.commands);
  target.pipelines.push(...source.pipelines);
  target.redirections.push(...source.redirections);
  target.functions.push(...source.functions);
  if (source.parseError && !target.parseError) target.parseError = source.parseError;
}
