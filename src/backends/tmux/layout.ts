// The panes a tmux window layout string names (%layout-change, #{window_layout}).
// A layout is a tree of cells "WxH,X,Y" followed by either ",<pane number>" (a pane) or
// "{…}" / "[…]" (a row or column of cells), behind a four-digit checksum:
//   "b25f,80x24,0,0,2"  or  "c1d4,160x40,0,0{80x40,0,0,3,79x40,81,0,4}".

const PANE_CELL = /\d+x\d+,\d+,\d+,(\d+)/g;

/** The ids ("%3") of the panes in a layout string. */
export function panesOfLayout(layout: string): Set<string> {
  return new Set([...layout.matchAll(PANE_CELL)].map((m) => `%${m[1]}`));
}

/**
 * Whether a %layout-change ("@1 <layout> <visible layout> <flags>") leaves out a pane last seen
 * in that window. A pane closed in a split window shows only this way; but every new window
 * and resize changes a layout too, and listing all panes for each of those cost every open
 * one more tmux round trip. Panes not yet placed (being created) are not counted.
 */
export function layoutDropsAKnownPane(args: string, paneWindows: ReadonlyMap<string, string>): boolean {
  const [windowId, layout = ""] = args.split(" ");
  const inLayout = panesOfLayout(layout);
  for (const [paneId, window] of paneWindows) if (window === windowId && !inLayout.has(paneId)) return true;
  return false;
}
