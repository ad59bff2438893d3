import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { GIT_PREFIX, capLines, someHead } from "./helpers.js";

const HINT = /^\s+\(use "git .*\)$|^\s+\(commit or discard .*\)$/;
const SECTION = /^(?:Changes to be committed|Changes not staged for commit|Untracked files|Unmerged paths|Ignored files):$/;
const FILES_PER_SECTION = 40;

/** `git status`: drops the "(use git …)" hints and blank lines, keeps every heading and file (capped per section). */
export const gitStatus: Reducer = {
  name: "git-status",
  command: new RegExp(String.raw`${GIT_PREFIX}status\b(?!.*--porcelain)(?!.*\s-s\b)`),
  shape: (lines) => someHead(lines, /^(?:On branch |HEAD detached |Not currently on any branch)/, 3) && someHead(lines, /^(?:nothing to commit|Changes |Untracked files:|Your branch)/, 12),
  reduce(lines, target) {
    const out: Line[] = [];
    let section: Line[] = [];
    const flush = (): void => {
      out.push(...capLines(section, FILES_PER_SECTION, target, "more files"));
      section = [];
    };
    for (const line of lines) {
      if (line.text === "" || HINT.test(line.text)) continue;
      if (SECTION.test(line.text) || !/^\s/.test(line.text)) {
        flush();
        out.push(line);
      } else section.push({ ...line, text: line.text.trim().replace(/:\s+/, ": ") });
    }
    flush();
    return out;
  },
};
