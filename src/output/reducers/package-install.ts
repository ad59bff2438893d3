import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { note, someTail } from "./helpers.js";

const DEPRECATED = /^(?:npm (?:warn|WARN) deprecated|warning .*deprecated|\s*WARN\s+deprecated) (\S+?)(?:@[\w.^~<>=*-]*)?:/i;
const NOISE = /^(?:\s*run `npm fund`|\d+ packages? (?:is|are) looking for funding|\[\d\/\d\] |Progress: resolved|Packages: \+|\++$|info (?:No lockfile|There appears)|yarn install v|Resolving: total|Already up to date|Lockfile is up to date|Downloading )/;
const ADDED_PACKAGE = /^\s*\+ (\S+) (\S+)$/;

/**
 * npm / pnpm / yarn / bun install: funding notices, progress, step headers and the long
 * "+ pkg version" list go (counted, names kept on one line); deprecation warnings
 * collapse to one line naming the packages; errors, other warnings, the
 * added/removed/audited summary and vulnerability counts stay.
 */
export const packageInstall: Reducer = {
  name: "package-install",
  command: /^(?:npm|pnpm|yarn|bun)(?:\s+--?\S+)*(?:\s+(?:install|i|ci|add|update|up|upgrade|remove|rm|uninstall)\b|\s*$)/,
  shape: (lines) => someTail(lines, /^(?:added|removed|changed|up to date)\b.*\bpackages?\b.* in [\d.]+m?s|^Done in [\d.]+m?s|^\d+ packages installed/, 8),
  reduce(lines) {
    const out: Line[] = [];
    const deprecated: Line[] = [];
    const added: Line[] = [];
    for (const line of lines) {
      const text = line.text;
      if (DEPRECATED.test(text)) deprecated.push(line);
      else if (ADDED_PACKAGE.test(text)) added.push(line);
      else if (/^\s*$/.test(text) || /^[⠁-⣿]\s*$/.test(text) || (NOISE.test(text) && !/error/i.test(text))) continue;
      else out.push(line);
    }
    const extra: Line[] = [];
    if (deprecated.length > 0) {
      const names = deprecated.map((line) => DEPRECATED.exec(line.text)![1]).join(", ");
      extra.push(note(`${deprecated.length} deprecated: ${names}`, deprecated));
    }
    if (added.length > 0) {
      const names = added.map((line) => ADDED_PACKAGE.exec(line.text)!.slice(1).join("@")).join(", ");
      extra.push(note(`+ ${added.length}: ${names}`, added));
    }
    return [...extra, ...out];
  },
};
