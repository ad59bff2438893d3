// The built-in dangerous-command rules. Each has a stable name (used in verdicts and in
// TERMHIVE_SAFETY_DISABLE) and a reason written for the model that sent the command.
import { hasOptionValue, optionsOf, positionalsOf, subcommandOf } from "./args.js";
import type { ParsedScript, SimpleCommand } from "./command.js";
import { forkBombInText } from "./fork-bomb-text.js";
import { isShell } from "./unwrap.js";
import { isBlockDevice, isCriticalDeleteTarget, isSystemPath } from "./paths.js";
import { decodedPipeShell, findDelete, interpreterDelete, opaqueProgram, runsStdinAsCode, xargsDelete } from "./rules-indirect.js";

export interface Rule {
  name: string;
  reason: string;
  /** Segments of the script that break the rule (empty when none does). */
  find(script: ParsedScript): string[];
  /** The same answer without holding the event loop, for a rule whose cost grows with the command (a custom rule's user regexes). */
  findAsync?(script: ParsedScript): Promise<string[]>;
}

/** A rule judged one simple command at a time. */
export function commandRule(name: string, reason: string, matches: (command: SimpleCommand) => boolean): Rule {
  return { name, reason, find: (script) => script.commands.filter(matches).map((c) => c.segment) };
}

// ---- rules -------------------------------------------------------------------------

const recursiveDelete = commandRule(
  "recursive-delete",
  "recursively deletes the root, a home directory, the current or parent directory, everything (*), or a top-level system directory",
  (c) => {
    if (c.program !== "rm") return false;
    const { short, long } = optionsOf(c.args);
    if (long.has("--no-preserve-root")) return true;
    if (!(short.has("r") || short.has("R") || long.has("--recursive"))) return false;
    return positionalsOf(c.args).some(isCriticalDeleteTarget);
  },
);

const mkfs = commandRule(
  "mkfs",
  "creates a filesystem, erasing everything on the target device",
  (c) => /^(mkfs(\..+)?|mke2fs|mkdosfs|mkntfs|mkswap|newfs(_.+)?)$/.test(c.program),
);

const blockDeviceWrite: Rule = {
  name: "block-device-write",
  reason: "writes directly onto a block device (disk or partition), destroying its filesystem",
  find(script) {
    const hits = script.commands.filter((c) => {
      if (c.program === "dd") return c.args.some((a) => a.startsWith("of=") && isBlockDevice(a.slice(3)));
      if (["tee", "cp", "shred", "wipefs", "blkdiscard"].includes(c.program)) {
        return positionalsOf(c.args).some(isBlockDevice);
      }
      return false;
    }).map((c) => c.segment);
    for (const r of script.redirections) if (r.writes && isBlockDevice(r.target)) hits.push(r.segment);
    return hits;
  },
};

const forkBomb: Rule = {
  name: "fork-bomb",
  reason: "defines a function that spawns copies of itself without bound (a fork bomb), exhausting the machine's processes",
  find(script) {
    const hits = script.functions
      .filter((fn) => {
        const selfCalls = fn.calls.filter((call) => call.program === fn.name);
        return selfCalls.some((call) => call.background) || selfCalls.filter((call) => call.inPipeline).length >= 2;
      })
      .map((fn) => fn.segment);
    return hits;
  },
};

const recursiveChmodRoot = commandRule(
  "recursive-chmod-root",
  "recursively changes ownership or permissions of the root or a top-level system directory, which can make the system unusable",
  (c) => {
    if (!["chmod", "chown", "chgrp"].includes(c.program)) return false;
    const { short, long } = optionsOf(c.args);
    if (!(short.has("R") || long.has("--recursive"))) return false;
    return positionalsOf(c.args).slice(1).some(isSystemPath);
  },
);

const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c"]);
const curlPipeShell: Rule = {
  name: "curl-pipe-shell",
  reason: "pipes a downloaded script straight into a shell or interpreter, running code nobody has read",
  find(script) {
    const hits: string[] = [];
    for (const pipeline of script.pipelines) {
      const firstDownload = pipeline.stages.findIndex((s) => s !== null && DOWNLOADERS.has(s.program));
      if (firstDownload < 0) continue;
      if (pipeline.stages.slice(firstDownload + 1).some((s) => s !== null && runsStdinAsCode(s))) hits.push(pipeline.segment);
    }
    // `bash <(curl …)` and `sh -c "$(curl …)"`: a shell fed by a download through a substitution.
    for (const c of script.commands) {
      if (!isShell(c.program)) continue;
      const fed = c.words.some((w) => !w.literal && /<\(…\)|\$\(…\)/.test(w.text));
      if (fed && DOWNLOAD_IN_TEXT.test(c.segment)) hits.push(c.segment);
    }
    return hits;
  },
};
const DOWNLOAD_IN_TEXT = /(<\(|\$\(|`)\s*(sudo\s+)?(curl|wget)\b/;

const SQL_CLIENTS = new Set(["psql", "mysql", "mariadb", "sqlite3", "duckdb"]);
const DESTRUCTIVE_SQL = /\b(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE)\b/i;
const sqlDropTruncate: Rule = {
  name: "sql-drop-truncate",
  reason: "runs DROP or TRUNCATE through a database client, deleting tables or data",
  find(script) {
    const hits = script.commands
      .filter((c) => SQL_CLIENTS.has(c.program) && (c.args.some((a) => DESTRUCTIVE_SQL.test(a)) || DESTRUCTIVE_SQL.test(c.stdinText ?? "")))
      .map((c) => c.segment);
    // `echo 'DROP TABLE t' | psql` and `cat <<EOF | psql`.
    for (const pipeline of script.pipelines) {
      const client = pipeline.stages.findIndex((s) => s !== null && SQL_CLIENTS.has(s.program));
      if (client <= 0) continue;
      const fed = pipeline.stages.slice(0, client).some((s) =>
        s !== null && ((["echo", "printf", "cat"].includes(s.program) && s.args.some((a) => DESTRUCTIVE_SQL.test(a))) || DESTRUCTIVE_SQL.test(s.stdinText ?? "")));
      if (fed) hits.push(pipeline.segment);
    }
    return hits;
  },
};

const GIT_GLOBAL_VALUE_OPTIONS = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"];
const git = (c: SimpleCommand) => (c.program === "git" ? subcommandOf(c.args, GIT_GLOBAL_VALUE_OPTIONS) : { name: "", rest: [] });

const PROTECTED_BRANCH = /^(refs\/heads\/)?(main|master)$/;
const gitForcePushMain = commandRule(
  "git-force-push-main",
  "force-pushes to main/master (or to an unnamed branch, which may be main), rewriting shared history",
  (c) => {
    const { name, rest } = git(c);
    if (name !== "push") return false;
    const { short, long } = optionsOf(rest);
    const refspecs = positionalsOf(rest, ["-o", "--push-option", "--repo"]).slice(1);
    const forced = short.has("f") || long.has("--force") || long.has("--force-with-lease") || refspecs.some((r) => r.startsWith("+"));
    if (!forced) return false;
    if (long.has("--all") || long.has("--mirror") || refspecs.length === 0) return true;
    return refspecs.some((refspec) => PROTECTED_BRANCH.test(refspec.replace(/^\+/, "").split(":").pop()!));
  },
);

const gitResetHard = commandRule(
  "git-reset-hard",
  "discards all uncommitted changes in the working tree and index (git reset --hard)",
  (c) => { const { name, rest } = git(c); return name === "reset" && rest.includes("--hard"); },
);

const gitCleanForce = commandRule(
  "git-clean-force",
  "permanently deletes untracked files (and with -x ignored files, with -d whole directories) that git cannot restore",
  (c) => {
    const { name, rest } = git(c);
    if (name !== "clean") return false;
    const { short, long } = optionsOf(rest);
    const dryRun = short.has("n") || long.has("--dry-run");
    return !dryRun && (short.has("f") || long.has("--force"));
  },
);

const shutdownReboot = commandRule(
  "shutdown-reboot",
  "shuts down, halts or reboots the machine",
  (c) => {
    if (["shutdown", "reboot", "halt", "poweroff"].includes(c.program)) {
      return !(c.program === "shutdown" && c.args.includes("-c")); // -c cancels a pending shutdown
    }
    if (c.program === "systemctl") return ["poweroff", "reboot", "halt", "kexec", "soft-reboot"].some((verb) => c.args.includes(verb));
    if (c.program === "init" || c.program === "telinit") return c.args[0] === "0" || c.args[0] === "6";
    return false;
  },
);

const KUBECTL_GLOBAL_VALUE_OPTIONS = ["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "--as", "--as-group", "--request-timeout", "-l", "--selector"];
const kubectlDeleteNoNamespace = commandRule(
  "kubectl-delete-no-namespace",
  "runs kubectl delete without naming a namespace (-n/--namespace), so it acts on whatever namespace the current context points at, or on all of them with -A",
  (c) => {
    if (c.program !== "kubectl" && c.program !== "oc") return false;
    if (subcommandOf(c.args, KUBECTL_GLOBAL_VALUE_OPTIONS).name !== "delete") return false;
    if (c.args.includes("-A") || c.args.includes("--all-namespaces")) return true;
    return !hasOptionValue(c.args, "-n", "--namespace");
  },
);

const terraformDestroy = commandRule(
  "terraform-destroy",
  "destroys every resource the Terraform configuration manages",
  (c) => {
    if (!["terraform", "tofu", "terragrunt"].includes(c.program)) return false;
    const { name, rest } = subcommandOf(c.args, []);
    return name === "destroy" || (name === "apply" && (rest.includes("-destroy") || rest.includes("--destroy")));
  },
);

const DIRECT_RULES: readonly Rule[] = [
  recursiveDelete, mkfs, blockDeviceWrite, forkBomb, recursiveChmodRoot, curlPipeShell, sqlDropTruncate,
  gitForcePushMain, gitResetHard, gitCleanForce, shutdownReboot, kubectlDeleteNoNamespace, terraformDestroy,
  findDelete, xargsDelete, decodedPipeShell, interpreterDelete,
];

export const BUILTIN_RULES: readonly Rule[] = [...DIRECT_RULES, opaqueProgram(DIRECT_RULES)];

/** Text shapes checked on the raw command only when the parser rejected it: each finds its first match, or null. */
export const FALLBACK_PATTERNS: readonly { rule: string; find(text: string): string | null }[] = [
  { rule: "fork-bomb", find: forkBombInText },
];
