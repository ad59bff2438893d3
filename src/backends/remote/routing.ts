// Calls routed by the pane (or window) they name: each is the same call on the backend that
// holds the pane, with the id that backend knows it by. One helper per kind of call, so the
// router lists which calls it routes instead of writing each forward by hand.
import type { Backend, Marks, PaneIO, PausableOutput, SharedState, Windows } from "../backend.js";

export interface Routes {
  readonly local: Backend;
  /** The backend holding a pane, and its own id for the pane. */
  route(paneId: string): Promise<{ backend: Backend; paneId: string }>;
  /** The backend holding a window, and its own id for the window. */
  routeWindow(windowId: string): Promise<{ backend: Backend; id: string }>;
}

type AnyCall = (...args: unknown[]) => Promise<unknown>;

/** Pane I/O calls whose first argument is a pane id and whose answer needs no translating. */
export type RoutedPaneCall = "writeInput" | "sendKeys" | "resize" | "setMeta" | "snapshot" | "kill" | "focus";

export function byPane<K extends RoutedPaneCall>(routes: Routes, name: K): PaneIO[K] {
  return (async (paneId: string, ...args: unknown[]) => {
    const { backend, paneId: own } = await routes.route(paneId);
    return (backend[name] as AnyCall).call(backend, own, ...args);
  }) as PaneIO[K];
}

// Values kept with the backend server (paneId null: name claims, hive state) stay local:
// one termhive's names and hive span all its hosts.
export function sharedByPane<K extends keyof SharedState>(routes: Routes, name: K): SharedState[K] {
  return (async (paneId: string | null, ...args: unknown[]) => {
    const { backend, paneId: own } = paneId === null ? { backend: routes.local, paneId: null } : await routes.route(paneId);
    return (backend.shared[name] as AnyCall).call(backend.shared, own, ...args);
  }) as SharedState[K];
}

/**
 * A call of an optional capability, routed by pane (or by window): where the backend holding
 * it lacks the capability the call does nothing (answers `absent`).
 */
function capabilityCall<C>(routes: Routes, capability: (backend: Backend) => C | undefined, by: "pane" | "window") {
  return <K extends keyof C>(name: K, absent?: unknown): C[K] =>
    (async (id: string, ...args: unknown[]) => {
      const { backend, id: own } = by === "pane" ? await routes.route(id).then((r) => ({ backend: r.backend, id: r.paneId })) : await routes.routeWindow(id);
      const target = capability(backend);
      return target ? (target[name] as AnyCall).call(target, own, ...args) : absent;
    }) as C[K];
}

export function routedWindows(routes: Routes): Windows {
  const call = capabilityCall(routes, (b) => b.windows, "pane");
  return { arrangeWindow: call("arrangeWindow"), showPaneBorders: call("showPaneBorders"), setTitle: call("setTitle") };
}

export function routedPausable(routes: Routes): PausableOutput {
  return { resumeOutput: capabilityCall(routes, (b) => b.pausable, "pane")("resumeOutput") };
}

// Status at a glance: borders and window summaries live in the pane's own tmux, local or
// remote. A bell is written to the terminals attached to the pane, which for a remote pane
// are on the host: those are not rung (their tty names mean other terminals here).
export function routedMarks(routes: Routes, isRemote: (paneId: string) => boolean): Marks {
  const byPaneCall = capabilityCall(routes, (b) => b.marks, "pane");
  const byWindow = capabilityCall(routes, (b) => b.marks, "window");
  return {
    markPane: byPaneCall("markPane"),
    windowMarks: byWindow("windowMarks", []),
    showWindowSummary: byWindow("showWindowSummary"),
    alertAttached: async (paneId, bytes) => {
      if (isRemote(paneId)) return;
      await routes.local.marks?.alertAttached(paneId, bytes);
    },
  };
}
