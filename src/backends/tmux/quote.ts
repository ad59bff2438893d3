// Quoting for tmux's command parser. Single quotes make everything literal; an embedded
// quote is closed, escaped and reopened, which the parser joins into one argument.

export function tmuxQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** For arguments tmux also expands as formats (e.g. select-pane -T): "#" must be doubled. */
export function tmuxQuoteFormat(value: string): string {
  return tmuxQuote(value.replace(/#/g, "##"));
}
