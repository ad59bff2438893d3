// The fork-bomb shape in raw text, for commands the parser could not judge (over 2,048
// characters, or not valid shell): what /([\w:.]+)\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&/ finds,
// found in time linear in the text. That regex needs a backreference, so V8's linear engine
// cannot run it, and its backtracking is quadratic in the length of a word: `rm` followed by
// a 100,000-character word held the server ~40 s.
//
// The regex's match, spelled out: a function name — a suffix of the word of name characters
// just before `()` — then `{`, and before the first `}`, that name, `|`, the name again as a
// whole run of name characters, then `&` (blanks allowed between each). Leftmost match: the
// first `()` that has one, its longest name; `[^}]*` being greedy, the last such `|`.

/** Pairs looked at, at most; a text built to need more is reported (resend with confirm). */
const WORK_LIMIT = 1_000_000;

const isName = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 58 || code === 46;
const isBlank = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/** `name | name &`: where the first name starts, where `&` is, and the name. */
interface Pipe {
  start: number;
  amp: number;
  name: string;
}

function pipesIn(text: string): Pipe[] {
  const pipes: Pipe[] = [];
  for (let bar = text.indexOf("|"); bar !== -1; bar = text.indexOf("|", bar + 1)) {
    let from = bar + 1;
    while (isBlank(text[from])) from++;
    let to = from;
    while (to < text.length && isName(text.charCodeAt(to))) to++;
    if (to === from) continue;
    let amp = to;
    while (isBlank(text[amp])) amp++;
    if (text[amp] !== "&") continue;
    const name = text.slice(from, to);
    let end = bar;
    while (end > 0 && isBlank(text[end - 1])) end--;
    if (end < name.length || text.slice(end - name.length, end) !== name) continue;
    pipes.push({ start: end - name.length, amp, name });
  }
  return pipes;
}

/** The first fork-bomb shape in `text` (the regex's match[0]), or null. */
export function forkBombInText(text: string): string | null {
  if (!text.includes("()")) return null;
  const pipes = pipesIn(text);
  if (pipes.length === 0) return null;
  let work = 0;
  for (let paren = text.indexOf("()"); paren !== -1; paren = text.indexOf("()", paren + 1)) {
    let wordEnd = paren;
    while (wordEnd > 0 && isBlank(text[wordEnd - 1])) wordEnd--;
    let wordStart = wordEnd;
    while (wordStart > 0 && isName(text.charCodeAt(wordStart - 1))) wordStart--;
    if (wordStart === wordEnd) continue;
    let brace = paren + 2;
    while (isBlank(text[brace])) brace++;
    if (text[brace] !== "{") continue;
    const close = text.indexOf("}", brace + 1);
    const bodyEnd = close === -1 ? text.length : close;
    let best: Pipe | null = null;
    // Pipes are in text order: the first inside the body by binary search, then on to its end.
    let lo = 0;
    let hi = pipes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pipes[mid]!.start <= brace) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < pipes.length && pipes[i]!.amp < bodyEnd; i++) {
      const pipe = pipes[i]!;
      work += 1 + pipe.name.length;
      if (work > WORK_LIMIT) return text.slice(wordStart, Math.min(bodyEnd + 1, wordStart + 200));
      if (pipe.name.length > wordEnd - wordStart || text.slice(wordEnd - pipe.name.length, wordEnd) !== pipe.name) continue;
      if (!best || pipe.name.length >= best.name.length) best = pipe;
    }
    if (best) return text.slice(wordEnd - best.name.length, best.amp + 1);
  }
  return null;
}
