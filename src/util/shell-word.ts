// Quoting for text a person pastes into a POSIX shell (hints, attach commands).

/** The value as one shell word: as is when every character is inert, else single-quoted. */
export function shellWord(value: unknown): string {
  const s = String(value);
  return /^[\w.@%+=:,/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
