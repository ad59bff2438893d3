/**
 * The simple commands a command line runs, in the order a reducer should consider them:
 * the last `&&`/`;`/`||` step first (its output is what we are reading), then within that
 * step each `|` stage from last to first (`git log | head` is still git log's shape).
 * Each is normalised: leading `VAR=value`, `sudo`, `time`, `env`, `npx`, `exec`, runner
 * prefixes (`python -m`, `pnpm exec`, `yarn`) and directory prefixes of the program are
 * dropped, so reducers match on words like `pytest`, `tsc`, `git log`.
 *
 * This is a matcher for choosing an output shape, not a shell parser: a wrong guess
 * only costs a less suitable reducer, and the shape check backs it up.
 */
export function candidateCommands(commandLine: string): string[] {
  const steps = commandLine.split(/&&|\|\||;|\n/).map((step) => step.trim()).filter(Boolean);
  const out: string[] = [];
  for (const step of steps.reverse()) {
    const stages = step.split(/(?<!\|)\|(?!\|)/).map((stage) => normalise(stage)).filter(Boolean);
    out.push(...stages.reverse());
  }
  return out;
}

const PREFIX_WORD = /^(?:sudo|time|env|exec|nohup|command|npx|bunx|pnpx|stdbuf(?:\s+-\S+)*|timeout\s+\S+|nice(?:\s+-n\s*\S+)?)\s+/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+/;
const RUNNER = /^(?:python[\d.]*\s+-m|pnpm\s+exec|pnpm\s+dlx|yarn\s+exec|npm\s+exec(?:\s+--)?|uv\s+run|poetry\s+run)\s+/;

function normalise(stage: string): string {
  let text = stage.trim().replace(/^\(+/, "").trim();
  for (let previous = ""; previous !== text; ) {
    previous = text;
    text = text.replace(ASSIGNMENT, "").replace(PREFIX_WORD, "").replace(RUNNER, "");
  }
  // "./node_modules/.bin/tsc -p ." → "tsc -p ."
  return text.replace(/^\S*\//, "");
}
