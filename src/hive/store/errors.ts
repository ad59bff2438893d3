// Errors the hive gives back for bad input. Each one is an answer: it says what was wrong and
// what is valid, so the service can hand the message to a model unchanged.

import { NAME_RULE, isValidName } from "../../util/names.js";

export type HiveErrorCode = "unknown" | "duplicate" | "invalid" | "cycle" | "empty";

export class HiveError extends Error {
  constructor(
    readonly code: HiveErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "HiveError";
  }
}

/** Lists at most `max` valid names so an error about a big hive stays short. */
export function nameList(names: readonly string[], max = 20): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, max).join(", ");
  return names.length > max ? `${shown} … and ${names.length - max} more` : shown;
}

export function unknownName(kind: string, name: string, valid: readonly string[]): HiveError {
  return new HiveError("unknown", `unknown ${kind} '${name}'; valid ${kind}s: ${nameList(valid)}`);
}

/** Agents, teams, layouts and profiles follow the one name rule (util/names.ts). */
export function checkName(kind: string, name: unknown): string {
  if (!isValidName(name)) throw new HiveError("invalid", `invalid ${kind} name ${JSON.stringify(name)}: ${NAME_RULE}`);
  return name;
}
