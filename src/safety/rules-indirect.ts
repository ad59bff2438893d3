// Rules for deletions and code that do not name `rm` as the program: `find … -delete`,
// `… | xargs rm -rf`, decoded text piped to a shell, interpreter one-liners, and a program
// whose name the gate cannot resolve (`$r -rf ~` with r unknown). Each is narrow on purpose:
// it refuses what it can read as dangerous and says nothing about what it cannot read.
import { optionsOf, positionalsOf } from "./args.js";
import { emptyScript, type ParsedScript, type SimpleCommand } from "./command.js";
import { parseScript } from "./parse.js";
import { isCriticalDeleteTarget } from "./paths.js";
import type { Rule } from "./rules.js";
import { isShell, nestedScript, unwrap } from "./unwrap.js";

const perCommand = (name: string, reason: string, matches: (c: SimpleCommand) => boolean): Rule =>
  ({ name, reason, find: (script) => script.commands.filter(matches).map((c) => c.segment) });

export const INTERPRETERS = new Set(["python", "python2", "python3", "perl", "ruby", "node", "php"]);
/** A stage that would execute what arrives on its stdin as code. */
export function runsStdinAsCode(c: SimpleCommand): boolean {
  if (isShell(c.program)) return !optionsOf(c.args).short.has("c");
  if (INTERPRETERS.has(c.program)) return c.args.filter((a) => !a.startsWith("-")).every((a) => a === "-") && !c.args.some((a) => a === "-c" || a === "-e" || a === "-m");
  return false;
}

// ---- find ----------------------------------------------------------------------------

/** Tests that pick some files out of the tree; without one, find acts on all of it. */
const NARROWING = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
  "-newer", "-anewer", "-cnewer", "-newermt", "-newerct", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-used",
  "-size", "-user", "-group", "-uid", "-gid", "-nouser", "-nogroup", "-empty", "-perm", "-links", "-inum", "-samefile",
  "-context", "-fstype",
]);
const EXEC_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const DELETERS = new Set(["rm", "shred", "unlink"]);

interface FindReading { roots: string[]; deletes: boolean; narrowed: boolean }

function readFind(args: readonly string[]): FindReading {
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d)$/.test(args[i]!)) i++;
  if (args[i] === "-D") i += 2;
  const roots: string[] = [];
  while (i < args.length && !/^[-(!]/.test(args[i]!)) roots.push(args[i++]!);
  let deletes = false;
  let narrowed = false;
  for (let k = i; k < args.length; k++) {
    const arg = args[k]!;
    if (arg === "-delete") deletes = true;
    else if (EXEC_ACTIONS.has(arg)) {
      const end = args.findIndex((x, j) => j > k && (x === ";" || x === "+"));
      const inner = unwrap(args.slice(k + 1, end < 0 ? args.length : end).map((text) => ({ text, literal: true })));
      if (DELETERS.has(inner.program)) deletes = true;
      k = end < 0 ? args.length : end;
    } else if (NARROWING.has(arg) && args[k - 1] !== "!" && args[k - 1] !== "-not") narrowed = true;
  }
  return { roots: roots.length ? roots : ["."], deletes, narrowed };
}

/** `find ~`, `find /` with no test that narrows it: it walks the whole protected tree. */
const wholeProtectedTree = (f: FindReading): boolean => !f.narrowed && f.roots.some(isCriticalDeleteTarget);

export const findDelete = perCommand(
  "find-delete",
  "deletes everything find walks (-delete or -exec rm) under the root, a home, the current or parent directory or a top-level system directory, with no test (-name, -path, -mtime…) that narrows it",
  (c) => { if (c.program !== "find") return false; const f = readFind(c.args); return f.deletes && wholeProtectedTree(f); },
);

// ---- xargs rm ------------------------------------------------------------------------

/** What a stage prints, when the gate can read it: echo/printf of literal words, or a whole-tree find. */
function printedTargets(stage: SimpleCommand | null): string[] | "whole-tree" | null {
  if (!stage) return null;
  if ((stage.program === "echo" || stage.program === "printf") && !stage.wrappers.includes("xargs")) {
    return stage.args.filter((a) => !/^-[neE]+$/.test(a)).flatMap((a) => a.split(/\s+/)).filter(Boolean);
  }
  if (stage.program === "find" && wholeProtectedTree(readFind(stage.args))) return "whole-tree";
  return null;
}

export const xargsDelete: Rule = {
  name: "recursive-delete-xargs",
  reason: "recursively deletes, through xargs, the root, a home directory, the current or parent directory or a top-level system directory that the command before it prints",
  find(script) {
    const hits: string[] = [];
    const isXargsRm = (c: SimpleCommand | null): c is SimpleCommand => {
      if (!c || c.program !== "rm" || !c.wrappers.includes("xargs")) return false;
      // A protected target named on rm itself is recursive-delete's to report.
      if (positionalsOf(c.args).some(isCriticalDeleteTarget)) return false;
      const { short, long } = optionsOf(c.args);
      return short.has("r") || short.has("R") || long.has("--recursive");
    };
    for (const { stages, segment } of script.pipelines) {
      stages.forEach((stage, k) => {
        if (k === 0 || !isXargsRm(stage)) return;
        const printed = printedTargets(stages[k - 1]!);
        if (printed === "whole-tree" || (printed && printed.some(isCriticalDeleteTarget))) hits.push(segment);
      });
    }
    for (const c of script.commands) {
      if (isXargsRm(c) && c.stdinText !== undefined && c.stdinText.split(/\s+/).some(isCriticalDeleteTarget)) hits.push(c.segment);
    }
    return hits;
  },
};

// ---- decoded text into a shell -------------------------------------------------------

function decodes(c: SimpleCommand | null): boolean {
  if (!c) return false;
  const { short, long } = optionsOf(c.args);
  if (["base64", "base32", "basenc"].includes(c.program)) return short.has("d") || short.has("D") || long.has("--decode");
  if (c.program === "xxd") return short.has("r") || long.has("--revert");
  if (c.program === "openssl") return c.args.includes("-d"); // openssl base64 -d, openssl enc -d …
  return c.program === "uudecode";
}
const DECODE_IN_TEXT = /(<\(|\$\(|`)[^)`]*\b(base64|base32|basenc|xxd|openssl)\b[^)`]*\s(-d|-D|--decode|-r)\b/;

export const decodedPipeShell: Rule = {
  name: "decoded-pipe-shell",
  reason: "pipes decoded text (base64, xxd -r, openssl -d) into a shell or interpreter: the gate cannot read what it would run",
  find(script) {
    const hits: string[] = [];
    for (const { stages, segment } of script.pipelines) {
      const first = stages.findIndex(decodes);
      if (first >= 0 && stages.slice(first + 1).some((s) => s !== null && runsStdinAsCode(s))) hits.push(segment);
    }
    for (const c of script.commands) {
      if ((isShell(c.program) || c.program === "eval") && DECODE_IN_TEXT.test(c.segment)) hits.push(c.segment);
    }
    return hits;
  },
};

// ---- interpreter one-liners ----------------------------------------------------------

/** The code of `python -c CODE`, `perl -e CODE`, `ruby -e`, `node -e/--eval`, `php -r`. */
export function interpreterCode(c: SimpleCommand): string | undefined {
  if (!INTERPRETERS.has(c.program)) return undefined;
  const flags = c.program.startsWith("python") ? ["-c"] : c.program === "php" ? ["-r"] : ["-e", "-E", "--eval", "-p", "--print"];
  const codes: string[] = [];
  c.args.forEach((arg, i) => {
    if (flags.includes(arg) && i + 1 < c.args.length) codes.push(c.args[i + 1]!);
  });
  return codes.length ? codes.join("\n") : undefined;
}

const TREE_DELETE_CALL = /\b(rmtree|remove_tree|rm_rf|rm_r|remove_dir|rmSync|rmdirSync|rimraf)\b|\bfs(?:\.promises)?\.rm\s*\(/;
const HOME_OR_ROOT = /expanduser\(\s*(['"])~\/?\1\s*\)|Path\.home\(\)|environ(?:\.get)?\s*[[(]\s*(['"])HOME\2|getenv\(\s*(['"])HOME\3|\$ENV\{\s*['"]?HOME['"]?\s*\}|ENV\[\s*(['"])HOME\4|\bhomedir\(\)|process\.env\.HOME|Dir\.home|File\.expand_path\(\s*(['"])~\5|(['"(]|q[qw]?\()(~|\/|\$HOME|\/(?:usr|etc|var|home|root|bin|lib|opt|boot))\/?(['")])/;

export const interpreterDelete = perCommand(
  "interpreter-delete",
  "a python/perl/ruby/node one-liner that deletes a tree (rmtree, remove_tree, rm_rf, fs.rmSync…) and names the home directory or the root in its code",
  (c) => { const code = interpreterCode(c); return code !== undefined && TREE_DELETE_CALL.test(code) && HOME_OR_ROOT.test(code); },
);

// ---- a program the gate cannot name --------------------------------------------------

/** What an unresolved program name is tried as: the programs whose arguments the rules read. */
const STAND_INS = ["rm", "find", "chmod", "chown", "git", "dd", "sh"];

/**
 * `$r -rf ~` where r is not set on the line: refused when the arguments would be refused for
 * one of STAND_INS. A lone `$EDITOR file` or `"$@"` is not: nothing in it reads as dangerous.
 */
export function opaqueProgram(rules: readonly Rule[]): Rule {
  const refusedAs = (c: SimpleCommand, standIn: string): boolean => {
    let script: ParsedScript;
    if (isShell(standIn)) {
      const nested = nestedScript(standIn, c.args);
      if (nested === undefined) return false;
      script = parseScript(nested, 1);
    } else {
      script = emptyScript();
      script.commands.push({ ...c, program: standIn, opaqueProgram: false });
    }
    return rules.some((rule) => rule.find(script).length > 0);
  };
  return perCommand(
    "opaque-program",
    "runs a program named by a variable or command substitution the gate cannot resolve, with arguments it would refuse for rm, find, chmod, git, dd or sh -c: the gate cannot judge what runs",
    (c) => c.opaqueProgram === true && c.args.length > 0 && STAND_INS.some((standIn) => refusedAs(c, standIn)),
  );
}

