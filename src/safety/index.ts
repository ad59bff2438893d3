// PLACEHOLDER owned by the safety work (issue 3): replaced by the real gate and redaction.
// The signatures below are the contract the service relies on.

export interface Violation { rule: string; reason: string; segment: string }
export interface GateVerdict { allowed: boolean; violations: Violation[] }
export interface SafetyConfig { enabled: boolean }

export function loadSafetyConfig(env: NodeJS.ProcessEnv = process.env): SafetyConfig {
  return { enabled: env.TERMHIVE_SAFETY !== "off" };
}

export function checkCommand(_command: string, _config: SafetyConfig): GateVerdict {
  return { allowed: true, violations: [] };
}

/** Masks every given secret value wherever it appears. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("••••");
  return out;
}

/** Masks common credential shapes (AWS keys, bearer tokens, private key blocks). */
export function redactCredentials(text: string): string {
  return text;
}
