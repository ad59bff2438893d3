import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { note, someHead, someTail } from "./helpers.js";

const SATISFIED = /^Requirement already satisfied: (\S+)/;
const NOISE = /^\s*(?:Downloading|Using cached|Obtaining|Preparing metadata|Getting requirements|Installing build dependencies|Building wheels? for|Created wheel|Stored in directory|Attempting uninstall|Found existing installation|Uninstalling|Successfully uninstalled|Looking in (?:indexes|links)|Processing|Installing backend dependencies)\b.*(?<!error)$|^\s*[━╸╺\-]{5,}|^\s*\|[█▉▊▋▌▍▎▏ ]+\|/;

/**
 * pip install: download progress, cache hits and "Requirement already satisfied" lines
 * go (the satisfied ones counted); Collecting lines become one line of names; errors
 * with their indented detail block, notes, hints and the "Successfully installed" line
 * stay.
 */
export const pipInstall: Reducer = {
  name: "pip-install",
  command: /^(?:pip[\d.]*|uv\s+pip|pipx)\s+install\b/,
  shape: (lines) => someHead(lines, /^(?:Collecting |Requirement already satisfied: |Looking in (?:indexes|links): )/, 5) || someTail(lines, /^Successfully installed /, 5),
  reduce(lines) {
    const out: Line[] = [];
    const satisfied: Line[] = [];
    const collecting: Line[] = [];
    for (const line of lines) {
      const text = line.text;
      if (SATISFIED.test(text)) satisfied.push(line);
      else if (/^Collecting (\S+)/.test(text)) collecting.push(line);
      else if (text.trim() === "" || NOISE.test(text)) continue;
      else out.push(line);
    }
    const head: Line[] = [];
    if (collecting.length > 0) head.push(note(`Collecting ${collecting.map((line) => line.text.split(/\s+/)[1]).join(", ")}`, collecting));
    if (satisfied.length > 0) head.push(note(`${satisfied.length} requirements already satisfied`, satisfied));
    return [...head, ...out];
  },
};
