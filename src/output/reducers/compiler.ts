import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { note, someHead, someTail } from "./helpers.js";

const DIAGNOSTIC = /^\S+?:\d+(?::\d+)?: (?:fatal error|error|warning|note): /;
const LINKER = /undefined reference to|multiple definition of|ld(?:\.\w+)?: |collect2: |clang: error|gcc: error|cc1\w*: /;
const MAKE = /^g?make(?:\[\d+\])?: \*\*\*|^g?make(?:\[\d+\])?: (?:Target|Nothing to be done|.*not remade)/;
const COMMAND = /^\s*(?:[\w./-]*(?:gcc|g\+\+|clang\+?\+?|cc|c\+\+|ld|ar|ranlib)(?:-\d+)?|libtool|\/usr\/bin\/\S+)\s+/;
const CONTEXT = /^\S+?: (?:In (?:function|member function|constructor|destructor|instantiation)|At top level)|^In file included from |^\s+from \S+:\d+/;

/**
 * make with gcc/clang: compiler command lines (counted), source excerpts with their ^~~
 * underlines and Entering/Leaving directory chatter go; every diagnostic headline with
 * its file:line:col, linker errors and make's `*** … Error N` lines stay.
 */
export const compiler: Reducer = {
  name: "compiler",
  command: /^(?:g?make|gcc|g\+\+|cc|c\+\+|clang(?:\+\+)?|cmake\s+--build|ninja)\b/,
  shape: (lines) => someHead(lines, DIAGNOSTIC, 30) || someTail(lines, MAKE, 5),
  reduce(lines) {
    const out: Line[] = [];
    const commands: Line[] = [];
    for (const line of lines) {
      const text = line.text;
      if (DIAGNOSTIC.test(text) || LINKER.test(text) || MAKE.test(text)) out.push(line);
      else if (COMMAND.test(text)) commands.push(line);
      else if (/^\s*\d*\s*\|/.test(text) || CONTEXT.test(text) || /^g?make(?:\[\d+\])?: (?:Entering|Leaving) directory/.test(text) || text.trim() === "") continue;
      else if (/\b(?:error|warning|Error)\b/.test(text)) out.push(line);
    }
    if (commands.length > 0) out.unshift(note(`(${commands.length} compiler commands run)`, commands.slice(0, 1)));
    return out;
  },
};
