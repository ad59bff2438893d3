// Caller-declared secrets are masked by the one implementation in src/safety/redact.ts.
import { redactSecrets } from "../safety/redact.js";

export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  return secrets?.length ? redactSecrets(text, secrets) : text;
}
