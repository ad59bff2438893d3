import { randomBytes } from "node:crypto";
import { ToolError } from "../util/tool-error.js";

/** Names reach tmux options, file paths and tool results: a small alphabet keeps them inert everywhere. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validateName(name: string, what = "name"): string {
  if (!NAME.test(name) || name.includes("..")) {
    throw new ToolError(
      `invalid ${what} ${JSON.stringify(name)}: use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (no '..')`,
    );
  }
  return name;
}

export function newSessionId(): string {
  return "th-" + randomBytes(4).toString("hex");
}
