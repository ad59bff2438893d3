// The shell-syntax parser behind the gate: mvdan-sh, the GopherJS build of mvdan/sh
// (the parser behind shfmt).
//
// Why this one (evaluated on Node 20, this machine):
// - mvdan-sh: synchronous, full bash grammar (pipelines, `&&`/`||`, subshells, `$(…)`,
//   `<(…)`, heredocs, functions, `time`, `coproc`), positions on every node, clear parse
//   errors; ~1 ms to load, ~0.2 ms per typical command. One 1.5 MB JS file, no deps.
// - sh-syntax: the same parser compiled to WASM, but its API is async, and the gate sits on
//   the synchronous input path (`checkCommand` returns a verdict, not a promise).
// - bash-parser: unmaintained since 2017, fails on common bash (`[[ ]]`, `$'…'`, `|&`).
// The package is CommonJS without types, so it is loaded with createRequire and seen
// through the small structural types below (only the fields the gate reads).
import { createRequire } from "node:module";

export interface ShPos { Offset(): number }
export interface ShNode { Pos(): ShPos; End(): ShPos; [field: string]: unknown }
export interface ShLit extends ShNode { Value: string }
export interface ShWord extends ShNode { Parts: ShNode[] }
export interface ShRedirect extends ShNode { Op: number; N: ShLit | null; Word: ShWord | null; Hdoc: ShWord | null }
export interface ShStmt extends ShNode { Cmd: ShNode | null; Redirs: ShRedirect[]; Background: boolean; Negated: boolean }
export interface ShCallExpr extends ShNode { Args: ShWord[]; Assigns: ShNode[] }
export interface ShBinaryCmd extends ShNode { Op: number; X: ShStmt; Y: ShStmt }
export interface ShFuncDecl extends ShNode { Name: ShLit; Body: ShStmt }
export interface ShFile extends ShNode { Stmts: ShStmt[] }

interface ShParser { Parse(src: string, name: string): ShFile }
interface SyntaxModule {
  NewParser(): ShParser;
  NodeType(node: unknown): string;
  /** Visits every node depth-first; returning false skips the node's children. */
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
}

const require = createRequire(import.meta.url);
// The parser (a GopherJS build, ~30 MB of heap once loaded) is loaded on first use: most
// commands never reach it (see mightBeDangerous in gate.ts).
let loaded: { syntax: SyntaxModule; parser: ShParser } | undefined;
function lib(): { syntax: SyntaxModule; parser: ShParser } {
  if (!loaded) {
    const syntax = (require("mvdan-sh") as { syntax: SyntaxModule }).syntax;
    loaded = { syntax, parser: syntax.NewParser() };
  }
  return loaded;
}

export const nodeType = (node: unknown): string => lib().syntax.NodeType(node);
/**
 * A stable identity for a node. The library hands out a fresh JS wrapper on every field
 * access, so object identity cannot key a Map; type + source range can.
 */
export const nodeKey = (node: ShNode): string => `${nodeType(node)}@${node.Pos().Offset()}-${node.End().Offset()}`;
export const walk = (node: ShNode, visit: (node: ShNode) => boolean): void =>
  lib().syntax.Walk(node, (n) => (n ? visit(n) : true));

/** Thrown when the text is not valid shell; message is the parser's (`1:6: reached EOF …`). */
export class ShellSyntaxError extends Error {}

export function parseShell(source: string): ShFile {
  try {
    return lib().parser.Parse(source, "");
  } catch (error) {
    // GopherJS throws Go error values: an object with an Error() method.
    const err = error as { Error?: () => string; message?: string };
    throw new ShellSyntaxError(typeof err.Error === "function" ? err.Error() : String(err.message ?? error));
  }
}

// Operator codes are Go enum values inside the library; rather than hard-coding numbers
// that could shift between versions, learn them once by parsing tiny samples.
function binaryOp(sample: string): number {
  return (parseShell(sample).Stmts[0]!.Cmd as ShBinaryCmd).Op;
}
function redirectOp(sample: string): number {
  return parseShell(sample).Stmts[0]!.Redirs[0]!.Op;
}

function learnOperators() {
  const OP = {
    pipe: binaryOp("a | b"),
    pipeAll: binaryOp("a |& b"),
    redirOut: redirectOp("a > f"),
    appendOut: redirectOp("a >> f"),
    clobberOut: redirectOp("a >| f"),
    redirAll: redirectOp("a &> f"),
    appendAll: redirectOp("a &>> f"),
    readWrite: redirectOp("a <> f"),
    dupOut: redirectOp("a >& f"),
    heredoc: redirectOp("a <<E\nx\nE"),
    heredocDash: redirectOp("a <<-E\nx\nE"),
    herestring: redirectOp("a <<< x"),
  } as const;
  return {
    OP,
    /** Redirections that write to (and may clobber) their target. */
    WRITE_REDIRECTS: new Set([OP.redirOut, OP.appendOut, OP.clobberOut, OP.redirAll, OP.appendAll, OP.readWrite, OP.dupOut]) as ReadonlySet<number>,
    STDIN_TEXT_REDIRECTS: new Set([OP.heredoc, OP.heredocDash, OP.herestring]) as ReadonlySet<number>,
  };
}

let operators: ReturnType<typeof learnOperators> | undefined;
/** Operator codes, learned on first use (it needs the parser). */
export function ops(): ReturnType<typeof learnOperators> {
  return (operators ??= learnOperators());
}
