// The dangerous-command gate: parse, run every rule in force, report what matched.
// A refused command runs only when resent with `confirm: true`; that part is the service's.
import type { SafetyConfig } from "./config.js";
import { parseScript } from "./parse.js";
import type { ParsedScript } from "./command.js";
import { BUILTIN_RULES, FALLBACK_PATTERNS } from "./rules.js";

export interface Violation { rule: string; reason: string; segment: string }
export interface GateVerdict {
  allowed: boolean;
  violations: Violation[];
  /** Present when the shell parser rejected the text and the token fallback judged it. */
  parseError?: string;
}

/**
 * Every program a built-in rule can flag, plus text that needs the parser to judge (block
 * devices, function definitions for fork bombs, ANSI-C quoting that can spell any word).
 * Checked on the command with quotes and backslashes removed, so `\rm` and `r""m` still
 * count. A command with none of these cannot break a built-in rule: it skips the parser.
 */
/** A command word that starts with `$` or a backquote: a program the gate must resolve. */
const PROGRAM_FROM_EXPANSION = String.raw`(?:^|[;&|({\n\x60]|\b(?:do|then|else|sudo|doas|exec|xargs|env|nohup|time|command|builtin|nice|timeout))\s*(?:\w+=\S*\s+)*[$\x60]`;
const TRIGGERS = new RegExp(String.raw`(?:^|[^\w.-])(?:rm|mkfs[\w.]*|mke2fs|mkdosfs|mkntfs|mkswap|newfs|dd|tee|cp|shred|wipefs|blkdiscard|chmod|chown|chgrp|curl|wget|aria2c|fetch|psql|mysql|mariadb|sqlite3|duckdb|git|shutdown|reboot|halt|poweroff|systemctl|init|telinit|kexec|kubectl|oc|terraform|tofu|terragrunt|function|find|base64|base32|basenc|xxd|openssl|uudecode|python[\d.]*|perl|ruby|node|php)(?=$|[^\w-])|\/dev\/|\(\s*\)|--no-preserve-root|${PROGRAM_FROM_EXPANSION}`);

function mightBeDangerous(command: string, config: SafetyConfig): boolean {
  if (config.rules.some((rule) => !BUILTIN_RULES.includes(rule))) return true; // custom rules: always parse
  if (command.includes("$'")) return true;
  // Also with `\n`, `\t` read as blanks: `printf 'cd /\nrm -rf ~' | sh` prints a line break there.
  return TRIGGERS.test(command.replace(/['"\\]/g, "")) || TRIGGERS.test(command.replace(/\\[ntr]/g, " ").replace(/['"\\]/g, ""));
}

export function checkCommand(command: string, config: SafetyConfig): GateVerdict {
  if (!config.enabled || command.trim() === "") return { allowed: true, violations: [] };
  if (!mightBeDangerous(command, config)) return { allowed: true, violations: [] };
  const script = parseScript(command);
  return verdict(command, config, script, config.rules.map((rule) => rule.find(script)));
}

/**
 * checkCommand's answer, without holding the event loop on a long command: a custom rule's
 * user regexes over its arguments are matched paced or in a worker (Rule.findAsync).
 */
export async function checkCommandAsync(command: string, config: SafetyConfig): Promise<GateVerdict> {
  if (!config.enabled || command.trim() === "") return { allowed: true, violations: [] };
  if (!mightBeDangerous(command, config)) return { allowed: true, violations: [] };
  const script = parseScript(command);
  const found: string[][] = [];
  for (const rule of config.rules) found.push(rule.findAsync ? await rule.findAsync(script) : rule.find(script));
  return verdict(command, config, script, found);
}

/** The verdict from what each rule in force found (`found[i]`: config.rules[i]'s segments). */
function verdict(command: string, config: SafetyConfig, script: ParsedScript, found: readonly string[][]): GateVerdict {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  const add = (rule: string, reason: string, segment: string): void => {
    const key = `${rule}\0${segment}`;
    if (seen.has(key)) return;
    seen.add(key);
    violations.push({ rule, reason, segment });
  };
  config.rules.forEach((rule, i) => {
    for (const segment of found[i]!) add(rule.name, rule.reason, segment);
  });
  if (script.parseError) {
    for (const { rule: name, find } of FALLBACK_PATTERNS) {
      const rule = config.rules.find((r) => r.name === name);
      const match = rule && !violations.some((v) => v.rule === name) ? find(command) : null;
      if (rule && match !== null) add(rule.name, rule.reason, match);
    }
  }
  return { allowed: violations.length === 0, violations, ...(script.parseError ? { parseError: script.parseError } : {}) };
}
