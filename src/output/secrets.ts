/**
 * Masks values the caller declared secret (passwords it typed, tokens it passed in).
 * Credential shapes found in output are the safety module's job (src/safety/).
 */
export const SECRET_MASK = "***";

export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  if (!secrets) return text;
  let out = text;
  // Longest first, so a secret that contains another is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length > 0 && out.includes(secret)) out = out.split(secret).join(SECRET_MASK);
  }
  return out;
}
