// Option parsers of the CLI forms: InvalidArgumentError makes commander report a usage error
// (one line, exit 2).
import { InvalidArgumentError } from "commander";

export const int = (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isInteger(n)) throw new InvalidArgumentError("not a whole number.");
  return n;
};

export const seconds = (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("not a positive number of seconds.");
  return n;
};

export const port = (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("not a port (0 to 65535).");
  return n;
};

export const sandboxPreset = (v: string) => {
  if (v !== "worktree" && v !== "readonly") throw new InvalidArgumentError("a sandbox preset: worktree or readonly.");
  return v;
};
