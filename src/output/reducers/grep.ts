import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { capLines, note } from "./helpers.js";

// "path:12:text" (grep -n, rg --no-heading) or "path:text" (grep -r without -n).
const MATCH = /^([^\s:][^:]*?):(\d+)[:-](.*)$|^([^\s:][^:]*\.[\w]+):(.*)$/;
const MATCHES_PER_FILE = 8;

/**
 * grep / rg / git grep: matches grouped under their file with a per-file count, the path
 * written once instead of on every line; each file shows its first matches and one
 * fetch marker for the rest. rg's heading output (file line, then "12:text") is already
 * grouped and only gets the per-file cap.
 */
export const grep: Reducer = {
  name: "grep",
  command: /^(?:[ef]?grep|rg|ag|ack|git(?:\s+-\S+)*\s+grep)\b/,
  shape: (lines) => {
    const sample = lines.slice(0, 30);
    return sample.length >= 5 && sample.filter((line) => MATCH.test(line.text)).length >= sample.length * 0.9;
  },
  reduce(lines, target) {
    const groups = new Map<string, Line[]>();
    const order: string[] = [];
    let currentHeading: string | undefined;
    const other: Line[] = [];
    for (const line of lines) {
      const match = MATCH.exec(line.text);
      let file: string | undefined;
      let rest = "";
      if (match?.[1] !== undefined) {
        file = match[1];
        rest = `${match[2]}: ${match[3]!.trim()}`;
      } else if (match?.[4] !== undefined) {
        file = match[4];
        rest = match[5]!.trim();
      } else if (currentHeading !== undefined && /^\d+[:-]/.test(line.text)) {
        file = currentHeading;
        rest = line.text;
      } else if (line.text !== "" && !/\s/.test(line.text) && /[./]/.test(line.text)) {
        currentHeading = line.text; // rg heading: the file path alone on its line
        continue;
      }
      if (file === undefined) {
        if (line.text !== "") other.push(line);
        continue;
      }
      if (!groups.has(file)) {
        groups.set(file, []);
        order.push(file);
      }
      groups.get(file)!.push({ text: `  ${rest}`, from: line.from, to: line.to });
    }
    const total = [...groups.values()].reduce((sum, group) => sum + group.length, 0);
    // grep reading a pipe (`env | grep X`) prints no file names (its lines can look like rg's
    // file headings): there is nothing to group, and a count of file matches would say none matched.
    if (total === 0 || total < other.length) return [...lines];
    const out: Line[] = [note(`${total} matches in ${order.length} files`, lines.slice(0, 1))];
    for (const file of order) {
      const group = groups.get(file)!;
      out.push(note(`${file} (${group.length})`, group.slice(0, 1)));
      out.push(...capLines(group, MATCHES_PER_FILE, target, "more matches"));
    }
    return [...out, ...other];
  },
};
