// The one quoting for POSIX shells: hints and attach commands a person pastes, the launch
// script of a pane's program, the `termhive` shim in every pane.

/** The value as one shell word: as is when every character is inert, else single-quoted. */
export function shellWord(value: unknown): string {
  const s = String(value);
  return /^[\w.@%+=:,/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
