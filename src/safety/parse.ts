// Turns command text into the ParsedScript the rules read (see command.ts).
import { emptyScript, mergeInto, type ParsedScript, type ShellWord, type SimpleCommand } from "./command.js";
import { roughParse } from "./fallback.js";
import {
  nodeKey, nodeType, ops, parseShell, ShellSyntaxError, walk,
  type ShBinaryCmd, type ShCallExpr, type ShFile, type ShFuncDecl, type ShLit, type ShNode, type ShStmt, type ShWord,
} from "./shell-syntax.js";
import { isShell, nestedScript, unwrap } from "./unwrap.js";

interface ShAssign extends ShNode { Name: ShLit | null; Value: ShWord | null; Append: boolean; Index: unknown; Array: unknown }
interface ShParamExp extends ShNode { Param: ShLit | null; Length: boolean; Excl: boolean; Index: unknown; Slice: unknown; Repl: unknown; Exp: unknown }

/** `bash -c "bash -c '…'"` nesting deeper than this is not followed (bounded work). */
const MAX_NESTING = 8;

/**
 * Text longer than this skips the real parser. The GopherJS build hands out a fresh JS
 * wrapper for every node it is asked about, so walking costs ~50 µs per node: a typical
 * command takes ~1–4 ms, 8 KB of commands ~1.1 s and a 100 KB script 5.5 s (measured).
 * Longer text (pasted scripts, big heredocs) is judged by the linear token fallback
 * instead (100 KB: ~170 ms), which still applies every rule to every command it finds.
 */
export const MAX_PARSED_CHARS = 2 * 1024;

/**
 * Values given earlier on the same command line (`r=rm; $r -rf ~`): name → value, for the
 * plain `name=value` forms whose value is known. Followed in text order, whatever the control
 * flow (an assignment inside an `if` counts): judging more words as known only finds more.
 */
export type ShellVars = Map<string, ShellWord>;

export function parseScript(source: string, depth = 0, vars: ShellVars = new Map()): ParsedScript {
  if (source.length > MAX_PARSED_CHARS) {
    const script = fromRoughParse(source, depth);
    script.parseError = `longer than ${MAX_PARSED_CHARS} characters: judged by the token fallback`;
    return script;
  }
  let file: ShFile;
  try {
    file = parseShell(source);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    const script = fromRoughParse(source, depth);
    script.parseError = error.message;
    return script;
  }
  return fromSyntaxTree(file, source, depth, vars);
}

function fromSyntaxTree(file: ShFile, source: string, depth: number, vars: ShellVars): ParsedScript {
  const script = emptyScript();
  const slice = sourceSlicer(source);
  const stmtOf = new Map<string, ShStmt>();
  const commandOf = new Map<string, SimpleCommand>();
  const pipelineStmts: ShStmt[][] = [];
  const pipesSeen = new Set<string>();

  walk(file, (node) => {
    switch (nodeType(node)) {
      case "Stmt": {
        const stmt = node as ShStmt;
        if (stmt.Cmd) stmtOf.set(nodeKey(stmt.Cmd), stmt);
        for (const redirect of stmt.Redirs) {
          if (ops().WRITE_REDIRECTS.has(redirect.Op) && redirect.Word) {
            script.redirections.push({ writes: true, target: wordValue(redirect.Word).text, segment: slice(stmt) });
          }
        }
        break;
      }
      case "CallExpr": {
        const stmt = stmtOf.get(nodeKey(node));
        const call = node as ShCallExpr;
        // Only assignments: they set the shell's variables (their `$(…)` are walked anyway).
        // Before a command (`A=1 cmd`) they are that command's environment only.
        if (call.Args.length === 0) { for (const assign of call.Assigns) remember(assign as ShAssign, vars); break; }
        const words = call.Args.flatMap((word) => expandedWords(word, vars));
        const command = addCommand(script, words, slice(stmt ?? node), stdinTextOf(stmt, vars), depth, vars);
        commandOf.set(nodeKey(node), command);
        break;
      }
      case "BinaryCmd": {
        if (isPipe(node) && !pipesSeen.has(nodeKey(node))) pipelineStmts.push(pipelineStages(node as ShBinaryCmd, pipesSeen));
        break;
      }
      case "DeclClause": // export r=rm, local r=rm, declare r=rm
        for (const assign of (node as unknown as { Args: ShAssign[] }).Args) remember(assign, vars);
        break;
      case "FuncDecl":
        script.functions.push(functionDefinition(node as ShFuncDecl, slice));
        break;
    }
    return true;
  });

  for (const stmts of pipelineStmts) {
    const stages = stmts.map((stmt) => (stmt.Cmd ? commandOf.get(nodeKey(stmt.Cmd)) ?? null : null));
    script.pipelines.push({ stages, segment: stmts.map(slice).join(" | ") });
    // `echo 'rm -rf ~' | sh`: the script a shell reads is the text the stage before prints.
    stages.forEach((stage, k) => {
      const printed = k > 0 ? printedText(stages[k - 1]!) : undefined;
      if (stage && printed !== undefined && readsScriptFromStdin(stage) && depth < MAX_NESTING) mergeInto(script, parseScript(printed, depth + 1, new Map(vars)));
    });
  }
  return script;
}

/** Unwraps, records, and follows `bash -c '…'`-style nested scripts. */
function addCommand(script: ParsedScript, words: ShellWord[], segment: string, stdinText: string | undefined, depth: number, vars: ShellVars = new Map()): SimpleCommand {
  const unwrapped = unwrap(words);
  const command: SimpleCommand = {
    program: unwrapped.program,
    ...(unwrapped.literal ? {} : { opaqueProgram: true }),
    args: unwrapped.words.map((word) => word.text),
    words: unwrapped.words,
    wrappers: unwrapped.wrappers,
    segment,
    ...(stdinText !== undefined ? { stdinText } : {}),
  };
  script.commands.push(command);
  const nested = nestedScript(command.program, command.args);
  if (nested !== undefined && depth < MAX_NESTING) mergeInto(script, parseScript(nested, depth + 1, new Map(vars)));
  // `sh <<< 'rm -rf ~'`: a shell reading its script from a here-string or heredoc.
  else if (stdinText !== undefined && readsScriptFromStdin(command) && depth < MAX_NESTING) mergeInto(script, parseScript(stdinText, depth + 1, new Map(vars)));
  return command;
}

function fromRoughParse(source: string, depth: number): ParsedScript {
  const script = emptyScript();
  for (const pipeline of roughParse(source)) {
    const stages = pipeline.map((stage) => {
      for (const redirect of stage.redirects) {
        if (/^(>|>>|>\||&>|&>>|<>|>&)$/.test(redirect.op)) script.redirections.push({ writes: true, target: redirect.target, segment: stage.text });
      }
      while (stage.words.length && SHELL_KEYWORDS.has(stage.words[0]!.text)) stage.words.shift();
      return stage.words.length ? addCommand(script, stage.words, stage.text, undefined, depth) : null;
    });
    if (stages.length > 1) script.pipelines.push({ stages, segment: pipeline.map((s) => s.text).join(" | ") });
  }
  return script;
}

/** Reserved words the token fallback drops before a command (`do rm -rf ~`). */
const SHELL_KEYWORDS = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "time", "!", "coproc"]);

function isPipe(node: ShNode): boolean {
  const op = (node as ShBinaryCmd).Op;
  const { OP } = ops();
  return op === OP.pipe || op === OP.pipeAll;
}

function pipelineStages(node: ShBinaryCmd, seen: Set<string>): ShStmt[] {
  seen.add(nodeKey(node));
  const side = (stmt: ShStmt): ShStmt[] =>
    stmt.Cmd && nodeType(stmt.Cmd) === "BinaryCmd" && isPipe(stmt.Cmd) ? pipelineStages(stmt.Cmd as ShBinaryCmd, seen) : [stmt];
  return [...side(node.X), ...side(node.Y)];
}

function functionDefinition(decl: ShFuncDecl, slice: (node: ShNode) => string) {
  const inPipeline = new Set<string>();
  const inBackground = new Set<string>();
  const markCalls = (root: ShNode, into: Set<string>): void =>
    walk(root, (n) => { if (nodeType(n) === "CallExpr") into.add(nodeKey(n)); return true; });
  const calls: ShCallExpr[] = [];
  walk(decl.Body, (node) => {
    const type = nodeType(node);
    if (type === "Stmt" && (node as ShStmt).Background) markCalls(node, inBackground);
    if (type === "BinaryCmd" && isPipe(node)) markCalls(node, inPipeline);
    if (type === "CallExpr") calls.push(node as ShCallExpr);
    return true;
  });
  return {
    name: decl.Name.Value,
    calls: calls
      .filter((call) => call.Args.length > 0)
      .map((call) => ({
        program: unwrap(call.Args.map((word) => wordValue(word))).program,
        inPipeline: inPipeline.has(nodeKey(call)),
        background: inBackground.has(nodeKey(call)),
      })),
    segment: slice(decl),
  };
}

function stdinTextOf(stmt: ShStmt | undefined, vars: ShellVars): string | undefined {
  for (const redirect of stmt?.Redirs ?? []) {
    if (!ops().STDIN_TEXT_REDIRECTS.has(redirect.Op)) continue;
    const word = redirect.Hdoc ?? redirect.Word;
    if (word) return wordValue(word, vars).text;
  }
  return undefined;
}

/** Positions from the parser are byte offsets into the UTF-8 text. */
function sourceSlicer(source: string): (node: ShNode) => string {
  // A statement's range includes its `;` or `&`; the segment shown to a model reads better without.
  const tidy = (text: string): string => text.trim().replace(/\s*[;&]$/, "");
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(source)) return (node) => tidy(source.slice(node.Pos().Offset(), node.End().Offset()));
  const bytes = Buffer.from(source, "utf8");
  return (node) => tidy(bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString("utf8"));
}

// ---- words -------------------------------------------------------------------------

/** `r=rm`, `export r=rm`: the value when it is a plain one, else the name is unknown from here on. */
function remember(assign: ShAssign, vars: ShellVars): void {
  const name = assign.Name?.Value;
  if (!name) return;
  if (assign.Value && !assign.Append && !assign.Index && !assign.Array) vars.set(name, wordValue(assign.Value, vars));
  else vars.delete(name);
}

/** An unquoted `$x` alone is split into words (`x="rm -rf"; $x ~`); any other word is one word. */
function expandedWords(word: ShWord, vars: ShellVars): ShellWord[] {
  const value = wordValue(word, vars);
  const only = word.Parts.length === 1 ? word.Parts[0]! : null;
  if (!only || nodeType(only) !== "ParamExp" || !value.literal) return [value];
  return value.text.split(/[ \t\n]+/).filter(Boolean).map((text) => ({ text, literal: true }));
}

/** What `echo`/`printf` of literal words prints (escapes as echo -e would decode them); else undefined. */
function printedText(stage: SimpleCommand | null): string | undefined {
  if (!stage || (stage.program !== "echo" && stage.program !== "printf") || !stage.words.every((w) => w.literal)) return undefined;
  const words = stage.program === "echo" ? stage.args.filter((a) => !/^-[neE]+$/.test(a)) : stage.args.slice(0, 1);
  return words.join(" ").replace(/\\n/g, "\n");
}

/** A shell with no `-c` and no script file reads its script from stdin. */
export function readsScriptFromStdin(command: SimpleCommand): boolean {
  if (!isShell(command.program)) return false;
  return !command.args.some((arg) => /^-[a-z]*c/.test(arg)) && command.args.every((arg) => arg.startsWith("-"));
}

export function wordValue(word: ShWord, vars: ShellVars = new Map()): ShellWord {
  let text = "";
  let literal = true;
  for (const part of word.Parts) {
    const value = partValue(part, false, vars);
    text += value.text;
    literal &&= value.literal;
  }
  return { text, literal };
}

function partValue(part: ShNode, quoted: boolean, vars: ShellVars): ShellWord {
  switch (nodeType(part)) {
    case "Lit": {
      const raw = (part as ShLit).Value.replace(/\\\n/g, "");
      // Outside quotes a backslash quotes any character; inside double quotes only $ ` " \.
      return { text: quoted ? raw.replace(/\\([$`"\\])/g, "$1") : raw.replace(/\\(.)/g, "$1"), literal: true };
    }
    case "SglQuoted": {
      const value = (part as unknown as { Value: string; Dollar: boolean });
      return { text: value.Dollar ? decodeAnsiC(value.Value) : value.Value, literal: true };
    }
    case "DblQuoted": {
      let text = "";
      let literal = true;
      for (const inner of (part as unknown as { Parts: ShNode[] }).Parts) {
        const value = partValue(inner, true, vars);
        text += value.text;
        literal &&= value.literal;
      }
      return { text, literal };
    }
    case "ParamExp": {
      const exp = part as unknown as ShParamExp;
      const name = exp.Param?.Value ?? "";
      const plain = !exp.Length && !exp.Excl && !exp.Index && !exp.Slice && !exp.Repl && !exp.Exp;
      const known = plain ? vars.get(name) : undefined;
      return known ?? { text: `$${name}`, literal: false };
    }
    case "CmdSubst":
      return { text: "$(…)", literal: false };
    case "ProcSubst":
      return { text: "<(…)", literal: false };
    case "ArithmExp":
      return { text: "$((…))", literal: false };
    default:
      return { text: "", literal: false };
  }
}

/** `$'…'` strings: the escapes a dangerous command could hide behind. */
function decodeAnsiC(value: string): string {
  return value.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, escape: string) => {
    if (escape[0] === "x") return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", f: "\f", v: "\v" };
    return simple[escape] ?? escape;
  });
}
