import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead } from "./helpers.js";

const STEP = /^#(\d+) \[[^\]]+\] /;
const STEP_OUTPUT = /^#(\d+) (\d+\.\d+) (.*)$/;
const STEP_STATUS = /^#(\d+) (DONE [\d.]+s|CACHED|ERROR: .*|CANCELED)$/;
const OUTPUT_TAIL = 6;

/**
 * docker build (BuildKit plain/tty output; the legacy builder too): one line per step
 * with its status (DONE/CACHED/ERROR); step output goes, except the last lines of a
 * failed step and lines mentioning errors; the error report block at the end (from the
 * first "------" after an ERROR) stays whole.
 */
export const dockerBuild: Reducer = {
  name: "docker-build",
  command: /^(?:docker|podman|buildah)(?:\s+buildx)?\s+(?:build|compose\s+build|bud)\b/,
  shape: (lines) => someHead(lines, /^#\d+ \[internal\] load |^Step \d+\/\d+ : |^Sending build context to Docker daemon/, 10),
  reduce(lines) {
    const steps = new Map<string, { title: Line; status: string; output: Line[] }>();
    const order: string[] = [];
    const other: Line[] = [];
    let tailFrom = lines.length;
    const firstError = lines.findIndex((line) => /^#\d+ ERROR:|^ERROR(?:: | \[)/.test(line.text));
    if (firstError >= 0) {
      const report = lines.findIndex((line, index) => index > firstError && /^-{6,}$/.test(line.text));
      tailFrom = report >= 0 ? report : firstError;
    }
    lines.slice(0, tailFrom).forEach((line) => {
      const text = line.text;
      const id = /^#(\d+) /.exec(text)?.[1];
      if (id === undefined) {
        if (/^Step \d+\/\d+ : |^(?:Successfully (?:built|tagged)|ERROR|error|The command .* returned)/.test(text)) other.push(line);
        return;
      }
      if (!steps.has(id)) {
        steps.set(id, { title: line, status: "", output: [] });
        order.push(id);
      }
      const step = steps.get(id)!;
      if (STEP.test(text) && !STEP.test(step.title.text)) step.title = line;
      const status = STEP_STATUS.exec(text);
      if (status) step.status = status[2]!;
      else if (STEP_OUTPUT.test(text)) step.output.push(line);
    });
    const out: Line[] = [];
    for (const id of order) {
      const step = steps.get(id)!;
      if (/^#\d+ \[internal\]/.test(step.title.text) && !step.status.startsWith("ERROR")) continue;
      out.push({ ...step.title, text: `${step.title.text}${step.status ? ` → ${step.status}` : ""}` });
      const failed = step.status.startsWith("ERROR");
      const interesting = step.output.filter((line, index) => failed ? index >= step.output.length - OUTPUT_TAIL || /error|fail/i.test(line.text) : /\berror\b|\bfail(?:ed|ure)?\b/i.test(line.text));
      out.push(...interesting);
    }
    return [...out, ...other, ...lines.slice(tailFrom)];
  },
};
