// Safety configuration from the environment, validated once at start.
//
// ---- README: safety environment variables ------------------------------------------
// TERMHIVE_SAFETY=off             turn the dangerous-command gate off entirely ("on" is the default).
// TERMHIVE_SAFETY_DISABLE=a,b     turn off the named built-in or custom rules (comma-separated).
// TERMHIVE_SAFETY_RULES=/path.json add rules from a JSON file (format in custom-rules.ts).
// An unknown value, an unknown rule name or a bad rules file stops start-up with an error
// that names the variable and the problem.
// -------------------------------------------------------------------------------------
import { safetySettings, type SafetySettings } from "../config.js";
import { loadCustomRules, SafetyConfigError } from "./custom-rules.js";
import { BUILTIN_RULES, type Rule } from "./rules.js";

export interface SafetyConfig {
  enabled: boolean;
  /** The rules in force: built-ins plus custom ones, minus the disabled. */
  rules: readonly Rule[];
  /** Names turned off through TERMHIVE_SAFETY_DISABLE. */
  disabled: readonly string[];
}

export function loadSafetyConfig(env: NodeJS.ProcessEnv = process.env): SafetyConfig {
  return safetyConfigFrom(safetySettings(env));
}

/** The gate's configuration from its settings (config.ts reads them): validated, rules loaded. */
export function safetyConfigFrom(settings: SafetySettings): SafetyConfig {
  const switchValue = settings.switch.trim().toLowerCase();
  if (switchValue !== "on" && switchValue !== "off" && switchValue !== "") {
    throw new SafetyConfigError(`TERMHIVE_SAFETY must be "on" or "off", got "${settings.switch}"`);
  }
  const builtinNames = new Set(BUILTIN_RULES.map((rule) => rule.name));
  const custom = settings.rulesPath ? loadCustomRules(settings.rulesPath, builtinNames) : [];
  const all: Rule[] = [...BUILTIN_RULES, ...custom];

  const disabled = settings.disable;
  const known = new Set(all.map((rule) => rule.name));
  const unknown = disabled.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new SafetyConfigError(`TERMHIVE_SAFETY_DISABLE names unknown rule(s) ${unknown.map((n) => `"${n}"`).join(", ")}; known rules: ${[...known].join(", ")}`);
  }
  return {
    enabled: switchValue !== "off",
    rules: all.filter((rule) => !disabled.includes(rule.name)),
    disabled,
  };
}

export { SafetyConfigError };
