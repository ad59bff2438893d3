import { NAME_RULE, isValidName } from "../../util/names.js";
import { randomBytes } from "node:crypto";
import { ToolError } from "../../util/tool-error.js";

export function validateName(name: string, what = "name"): string {
  if (!isValidName(name)) throw new ToolError(`invalid ${what} ${JSON.stringify(name)}: ${NAME_RULE}`);
  return name;
}

export function newSessionId(): string {
  return "th-" + randomBytes(4).toString("hex");
}

/**
 * Why the sessions this process knew ended, by id and by name, so a later call naming one is
 * told what happened to that one (closed, its pane gone, the server ended), not a guess.
 * Bounded: the oldest are forgotten first.
 */
export class EndedSessions {
  private readonly why = new Map<string, string>();

  note(session: { id: string; name: string }, why: string): void {
    for (const key of [session.id, session.name]) {
      this.why.delete(key);
      this.why.set(key, why);
    }
    for (const key of this.why.keys()) {
      if (this.why.size <= 1000) break;
      this.why.delete(key);
    }
  }

  /** " (why)" for a session this process saw end, else "". */
  of(ref: string): string {
    const why = this.why.get(ref);
    return why === undefined ? "" : ` (${why})`;
  }
}
