// A program asking the terminal about itself: cursor position or status (CSI n), device
// attributes (CSI c, > c, = c), colours (OSC 10/11/12 ?). The terminal (tmux) answers into the
// pane's input; a program that exits without reading the answer leaves it for the shell's line
// editor, where it became `1R` or `2c` in front of the next command.
const TERMINAL_QUERY = /\x1b\[[?>=]?[0-9;]*[nc]|\x1b\](?:1[0-2]);\?/;

/** The text holds a query whose answer the terminal types into the pane's input. */
export function asksTheTerminal(text: string): boolean {
  return TERMINAL_QUERY.test(text);
}
