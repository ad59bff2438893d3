// The safety module: the dangerous-command gate and the redaction of secrets.
export { checkCommand, checkCommandAsync, type GateVerdict, type Violation } from "./gate.js";
export { loadSafetyConfig, safetyConfigFrom, SafetyConfigError, type SafetyConfig } from "./config.js";
export { BUILTIN_RULES, type Rule } from "./rules.js";
export { redactCredentials, redactSecrets, SECRET_MASK } from "../redact.js";
export { parseScript } from "./parse.js";
export type { ParsedScript, SimpleCommand } from "./command.js";
