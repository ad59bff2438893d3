// The one rule for every name a person or model gives: sessions, agents, teams, layouts,
// profiles. Names reach tmux options and window names, file paths, pane titles and tool
// results; a small alphabet keeps them inert in all of them.

/** 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What a valid name looks like, for error messages. */
export const NAME_RULE = "use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (no '..')";

/** A name that follows the rule; ".." is refused as well, since names become parts of paths. */
export function isValidName(name: unknown): name is string {
  return typeof name === "string" && NAME.test(name) && !name.includes("..");
}
