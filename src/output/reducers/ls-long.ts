import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead } from "./helpers.js";

// "drwxr-xr-x 2 user group 4096 Jan  1 12:00 name" (GNU and BSD, with or without -h, -i).
const ENTRY = /^(?:\d+\s+)?([-dlcbps])([-rwxsStT]{9})[.+@]?\s+\d+\s+\S+\s+\S+\s+([\d.,]+[KMGTP]?|\d+,\s*\d+)\s+(?:\w{3}\s+\d{1,2}\s+(?:\d{4}|\d{1,2}:\d{2})|\d{4}-\d{2}-\d{2}(?:\s+[\d:.]+(?:\s+[+-]\d{4})?)?)\s+(.*)$/;

/**
 * ls -l / -la / -laR: one short entry per file — name, "/" for directories, "*" for
 * executables, "-> target" for links, size for files; `.`/`..` and "total" lines go;
 * -R directory headings stay. Owners, permissions and dates are dropped: a model
 * listing a directory almost always wants names and sizes.
 */
export const lsLong: Reducer = {
  name: "ls-long",
  command: /^(?:ls|ll|la|dir)\b(?=.*\s-\w*l)|^ll\b/,
  shape: (lines) => someHead(lines, /^total \d/, 2) && lines.slice(1, 6).some((line) => ENTRY.test(line.text)),
  reduce(lines) {
    const out: Line[] = [];
    for (const line of lines) {
      const entry = ENTRY.exec(line.text);
      if (!entry) {
        if (!/^total \d/.test(line.text) && line.text.trim() !== "") out.push(line);
        continue;
      }
      const [, type, mode, size, name] = entry;
      if (name === "." || name === "..") continue;
      let text: string;
      if (type === "d") text = `${name}/`;
      else if (type === "l") text = name!;
      else if (type === "-") text = `${name}${/x/.test(mode!) ? "*" : ""} ${humanSize(size!)}`;
      else text = `${name} (${type})`;
      out.push({ ...line, text });
    }
    return out;
  },
};

function humanSize(size: string): string {
  if (!/^\d+$/.test(size)) return size;
  const bytes = Number(size);
  if (bytes < 1024) return `${bytes}`;
  const units = ["K", "M", "G", "T"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}${units[unit]}`;
}
