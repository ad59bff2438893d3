// A fast escape-code strip for matching user patterns against output. What the model reads
// goes through output/clean.ts instead, which also applies carriage returns like a terminal.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_=>78]/g;

export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, "").replace(/\r+\n/g, "\n");
}
