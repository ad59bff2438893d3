// Remote pane and window ids carry their host ("%3@build-box", "@2@build-box"), so every
// per-pane call finds its way and the rest of termhive keeps treating ids as opaque strings.
import type { PaneInfo } from "../backend.js";

const REMOTE_PANE = /^(%\d+)@(.+)$/;
const REMOTE_WINDOW = /^(@\d+)@(.+)$/;

export function remotePaneId(paneId: string, host: string): string {
  return `${paneId}@${host}`;
}

/** The host and host-side pane id of a remote pane id; null for a local pane. */
export function splitPaneId(paneId: string): { host: string; paneId: string } | null {
  const match = REMOTE_PANE.exec(paneId);
  return match ? { paneId: match[1]!, host: match[2]! } : null;
}

/** The host and host-side window id of a remote window id; null for a local window. */
export function splitWindowId(windowId: string): { host: string; windowId: string } | null {
  const match = REMOTE_WINDOW.exec(windowId);
  return match ? { windowId: match[1]!, host: match[2]! } : null;
}

/** A host's pane as the router names it. */
export function onHost(pane: PaneInfo, host: string): PaneInfo {
  return { ...pane, paneId: remotePaneId(pane.paneId, host), windowId: `${pane.windowId}@${host}`, meta: { ...pane.meta, host } };
}
