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
