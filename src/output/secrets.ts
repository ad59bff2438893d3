// Caller-declared secrets are masked by the one implementation in src/redact.ts.
import { redactSecrets } from "../redact.js";

export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  return secrets?.length ? redactSecrets(text, secrets) : text;
}
