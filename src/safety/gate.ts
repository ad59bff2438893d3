// The dangerous-command gate: parse, run every rule in force, report what matched.
// A refused command runs only when resent with `confirm: true`; that part is the service's.
import type { SafetyConfig } from "./config.js";
import { parseScript } from "./parse.js";
import { FALLBACK_PATTERNS } from "./rules.js";

export interface Violation { rule: string; reason: string; segment: string }
export interface GateVerdict {
  allowed: boolean;
  violations: Violation[];
  /** Present when the shell parser rejected the text and the token fallback judged it. */
  parseError?: string;
}

export function checkCommand(command: string, config: SafetyConfig): GateVerdict {
  if (!config.enabled || command.trim() === "") return { allowed: true, violations: [] };
  const script = parseScript(command);
  const violations: Violation[] = [];
  const seen = new Set<string>();
  const add = (rule: string, reason: string, segment: string): void => {
    const key = `${rule}\0${segment}`;
    if (seen.has(key)) return;
    seen.add(key);
    violations.push({ rule, reason, segment });
  };
  for (const rule of config.rules) for (const segment of rule.find(script)) add(rule.name, rule.reason, segment);
  if (script.parseError) {
    for (const { rule: name, pattern } of FALLBACK_PATTERNS) {
      const rule = config.rules.find((r) => r.name === name);
      const match = rule && !violations.some((v) => v.rule === name) ? pattern.exec(command) : null;
      if (rule && match) add(rule.name, rule.reason, match[0]);
    }
  }
  return { allowed: violations.length === 0, violations, ...(script.parseError ? { parseError: script.parseError } : {}) };
}
