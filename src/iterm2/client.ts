// A client for iTerm2's API: one WebSocket, protobuf frames both ways, requests matched to
// responses by id, notifications handed to whoever subscribed to them.
import { EventEmitter } from "node:events";
import { connect as netConnect } from "node:net";
import WebSocket from "ws";
import { VERSION } from "../version.js";
import { iterm2Credentials, iterm2Endpoints, requestCredentials, type Iterm2Credentials, type Iterm2Endpoint } from "./endpoint.js";
import { Iterm2Error, Iterm2Refusal } from "./errors.js";
import { decodeServer, encodeClient } from "./proto.js";

export const SUBPROTOCOL = "api.iterm2.com";
/**
 * iTerm2 refuses clients whose library version (in the Python module's "python X.Y" form)
 * is older than its minimum; termhive speaks the same protocol as a current module.
 */
export const LIBRARY_VERSION = "python 2.7";
const REQUEST_TIMEOUT_MS = 15_000;
const CONNECT_TIMEOUT_MS = 5_000;

export { Iterm2Error, Iterm2Refusal };

/**
 * Cookies iTerm2 refused: one from the environment is not offered again (a reconnect asks for
 * a fresh one at once). Only a refusal tells: a cookie iTerm2 gave a script it launched may be
 * reusable, and one that was taken once is offered until it is refused.
 */
const spentCookies = new Set<string>();

export type NotificationType =
  | "NOTIFY_ON_SCREEN_UPDATE"
  | "NOTIFY_ON_PROMPT"
  | "NOTIFY_ON_CUSTOM_ESCAPE_SEQUENCE"
  | "NOTIFY_ON_NEW_SESSION"
  | "NOTIFY_ON_TERMINATE_SESSION";

/** The Notification field each subscription's events arrive in. */
const NOTIFICATION_FIELD: Record<NotificationType, string> = {
  NOTIFY_ON_SCREEN_UPDATE: "screen_update_notification",
  NOTIFY_ON_PROMPT: "prompt_notification",
  NOTIFY_ON_CUSTOM_ESCAPE_SEQUENCE: "custom_escape_sequence_notification",
  NOTIFY_ON_NEW_SESSION: "new_session_notification",
  NOTIFY_ON_TERMINATE_SESSION: "terminate_session_notification",
};

export interface Iterm2Session {
  sessionId: string;
  tabId: string;
  windowId: string;
  title: string;
  rows: number;
  cols: number;
  /** Set for tabs that show a tmux window through iTerm2's tmux integration. */
  tmuxWindowId: string | null;
}

export interface BufferLine {
  text: string;
  /** The line wraps onto the next one (no newline between them). */
  soft: boolean;
}

export interface BufferContents {
  lines: BufferLine[];
  /** Absolute number (counting lines lost from history) of lines[0]. */
  firstLine: number;
  /** Lines before the visible screen, so screen row = absolute line - linesAboveScreen. */
  linesAboveScreen: number;
  cursor: { x: number; y: number };
}

export type VariableScope = { session: string } | { tab: string } | { window: string } | "app";

type Pending = { resolve: (message: Record<string, any>) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

export interface ConnectOptions {
  env?: NodeJS.ProcessEnv;
  endpoints?: Iterm2Endpoint[];
  /** The cookie and key to offer first (default: ITERM2_COOKIE/ITERM2_KEY unless spent). */
  credentials?: Iterm2Credentials | null;
  /** Asks iTerm2 for a fresh cookie and key (default: AppleScript, see requestCredentials). */
  requestCredentials?: () => Promise<Iterm2Credentials | null> | Iterm2Credentials | null;
}

export class Iterm2Client {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly notifications = new EventEmitter().setMaxListeners(0);
  /** "close" (reason) when the connection ends. */
  readonly events = new EventEmitter().setMaxListeners(0);
  private closedReason: string | null = null;

  private constructor(
    private readonly socket: WebSocket,
    readonly endpoint: Iterm2Endpoint,
  ) {
    socket.on("message", (data: Buffer) => this.onFrame(data));
    socket.on("close", (code, reason) => this.onClose(`iTerm2 closed the connection (${code}${reason.length ? `: ${reason.toString()}` : ""})`));
    socket.on("error", (error) => this.onClose(`iTerm2 connection failed: ${error.message}`));
  }

  get closed(): boolean {
    return this.closedReason !== null;
  }

  /**
   * Connects to the first endpoint that answers; the error names every one that did not.
   * As iTerm2's Python library does: a cookie from the environment is tried first, and when
   * iTerm2 refuses it (each cookie works once) a fresh one is asked for and tried once more.
   */
  static async connect(options: ConnectOptions = {}): Promise<Iterm2Client> {
    const env = options.env ?? process.env;
    const endpoints = options.endpoints ?? iterm2Endpoints(env);
    if (endpoints.length === 0) throw new Iterm2Error("iTerm2: not macOS (its API exists only there)");
    // Why no fresh cookie could be had (osascript's own words), for the refusal that follows.
    let unobtainable: string | null = null;
    const request = async () => {
      try {
        return await (options.requestCredentials ?? (() => requestCredentials(env)))();
      } catch (error) {
        unobtainable = (error as Error).message;
        return null;
      }
    };
    let credentials = options.credentials !== undefined ? options.credentials : iterm2Credentials(env);
    if (credentials && spentCookies.has(credentials.cookie)) credentials = null;
    let fresh = false;
    if (credentials === null) {
      credentials = await request();
      fresh = true;
    }
    try {
      try {
        return await Iterm2Client.connectWith(endpoints, credentials);
      } catch (error) {
        if (fresh || !(error instanceof Iterm2Refusal) || error.status !== 401) throw error;
        const again = await request();
        if (!again) throw error;
        return await Iterm2Client.connectWith(endpoints, again);
      }
    } catch (error) {
      if (error instanceof Iterm2Refusal && unobtainable !== null) throw new Iterm2Refusal(`${error.message}. ${unobtainable}`, error.status);
      throw error;
    }
  }

  private static async connectWith(endpoints: Iterm2Endpoint[], credentials: Iterm2Credentials | null): Promise<Iterm2Client> {
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      try {
        return new Iterm2Client(await openSocket(endpoint, credentials), endpoint);
      } catch (error) {
        // A refusal is an answer: iTerm2 is there and said no, so the other endpoint would too.
        if (error instanceof Iterm2Refusal && error.status === 401 && credentials) spentCookies.add(credentials.cookie);
        if (error instanceof Iterm2Refusal) throw error;
        failures.push((error as Error).message);
      }
    }
    throw new Iterm2Error(failures.join("; "));
  }

  private onFrame(data: Buffer): void {
    let message: Record<string, any>;
    try {
      message = decodeServer(data);
    } catch {
      return; // not a frame of ours; iTerm2 never sends one
    }
    if (message.notification) {
      for (const [field, value] of Object.entries(message.notification)) this.notifications.emit(field, value);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.submessage === "error") pending.reject(new Iterm2Error(`iTerm2: ${message.error}`));
    else pending.resolve(message);
  }

  private onClose(reason: string): void {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Iterm2Error(reason));
      this.pending.delete(id);
    }
    this.events.emit("close", reason);
  }

  /** Sends one request (`{ list_sessions_request: {} }`) and resolves with its response submessage. */
  async request(body: Record<string, unknown>): Promise<Record<string, any>> {
    if (this.closedReason !== null) throw new Iterm2Error(this.closedReason);
    const id = this.nextId++;
    const [kind] = Object.keys(body);
    const frame = encodeClient({ id, ...body });
    const response = await new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Iterm2Error(`iTerm2 did not answer ${kind} within ${REQUEST_TIMEOUT_MS / 1000} s`));
      }, REQUEST_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      this.socket.send(frame, (error) => {
        if (!error) return;
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new Iterm2Error(`iTerm2: sending ${kind} failed: ${error.message}`));
      });
    });
    const expected = kind!.replace(/_request$/, "_response");
    if (response.submessage !== expected) throw new Iterm2Error(`iTerm2 answered ${kind} with ${response.submessage}`);
    return response[expected] as Record<string, any>;
  }

  /** Subscribes to a notification (session "all" or an id); returns the unsubscribe. */
  async subscribe(type: NotificationType, session: string | null, handler: (event: Record<string, any>) => void): Promise<() => Promise<void>> {
    const field = NOTIFICATION_FIELD[type];
    const extra = type === "NOTIFY_ON_PROMPT" ? { prompt_monitor_request: { modes: ["PROMPT", "COMMAND_START", "COMMAND_END"] } } : {};
    const base = { ...(session !== null ? { session } : {}), notification_type: type };
    const r = await this.request({ notification_request: { ...base, subscribe: true, ...extra } });
    checkStatus("subscribe to " + type, r.status, ["OK", "ALREADY_SUBSCRIBED"]);
    this.notifications.on(field, handler);
    return async () => {
      this.notifications.off(field, handler);
      if (this.closed) return;
      await this.request({ notification_request: { ...base, subscribe: false } }).catch(() => undefined);
    };
  }

  /** Follows one session variable (e.g. "path"); `handler` gets each new value, JSON-decoded. Returns the unsubscribe. */
  async watchVariable(session: string, name: string, handler: (value: unknown) => void): Promise<() => Promise<void>> {
    const monitor = { variable_monitor_request: { name, scope: "SESSION", identifier: session }, notification_type: "NOTIFY_ON_VARIABLE_CHANGE" };
    const r = await this.request({ notification_request: { ...monitor, subscribe: true } });
    checkStatus(`watch ${name}`, r.status, ["OK", "ALREADY_SUBSCRIBED"]);
    const listener = (e: Record<string, any>) => {
      if (e.identifier !== session || e.name !== name) return;
      try {
        handler(JSON.parse(e.json_new_value ?? "null"));
      } catch {
        // not JSON: iTerm2 always sends JSON, so this is not a change we can read
      }
    };
    this.notifications.on("variable_changed_notification", listener);
    return async () => {
      this.notifications.off("variable_changed_notification", listener);
      if (!this.closed) await this.request({ notification_request: { ...monitor, subscribe: false } }).catch(() => undefined);
    };
  }

  async listSessions(): Promise<Iterm2Session[]> {
    const r = await this.request({ list_sessions_request: {} });
    const sessions: Iterm2Session[] = [];
    for (const window of r.windows ?? []) {
      for (const tab of window.tabs ?? []) {
        for (const summary of sessionsIn(tab.root)) {
          sessions.push({
            sessionId: summary.unique_identifier,
            tabId: String(tab.tab_id ?? ""),
            windowId: String(window.window_id ?? ""),
            title: summary.title ?? "",
            rows: summary.grid_size?.height ?? 0,
            cols: summary.grid_size?.width ?? 0,
            tmuxWindowId: tab.tmux_window_id ?? null,
          });
        }
      }
    }
    return sessions;
  }

  /** Opens a new tab (a new window when `windowId` is not given) with these profile changes. */
  async createTab(profile: Record<string, unknown>, windowId?: string): Promise<{ sessionId: string; tabId: string; windowId: string }> {
    const r = await this.request({ create_tab_request: { ...(windowId ? { window_id: windowId } : {}), custom_profile_properties: profileProperties(profile) } });
    checkStatus("create tab", r.status);
    return { sessionId: r.session_id, tabId: String(r.tab_id), windowId: r.window_id };
  }

  /** Splits `session`; vertical: side by side (a vertical divider). Returns the new session. */
  async splitPane(session: string, options: { vertical: boolean; before: boolean }, profile: Record<string, unknown>): Promise<string> {
    const r = await this.request({
      split_pane_request: { session, split_direction: options.vertical ? "VERTICAL" : "HORIZONTAL", before: options.before, custom_profile_properties: profileProperties(profile) },
    });
    checkStatus("split pane", r.status);
    const [id] = r.session_id ?? [];
    if (!id) throw new Iterm2Error("iTerm2 split the pane but named no new session");
    return id;
  }

  async sendText(session: string, text: string): Promise<void> {
    const r = await this.request({ send_text_request: { session, text } });
    checkStatus("send text", r.status);
  }

  /** The last `trailingLines` lines (history and screen), or just the screen. */
  async getBuffer(session: string, trailingLines?: number): Promise<BufferContents> {
    const line_range = trailingLines === undefined ? { screen_contents_only: true } : { trailing_lines: trailingLines };
    const r = await this.request({ get_buffer_request: { session, line_range } });
    checkStatus("get buffer", r.status);
    const lines: BufferLine[] = (r.contents ?? []).map((c: Record<string, any>) => ({ text: c.text ?? "", soft: c.continuation === "CONTINUATION_SOFT_EOL" }));
    const firstLine = Number(r.windowed_coord_range?.coord_range?.start?.y ?? 0);
    return { lines, firstLine, linesAboveScreen: Number(r.num_lines_above_screen ?? 0), cursor: { x: r.cursor?.x ?? 0, y: Number(r.cursor?.y ?? 0) } };
  }

  /** Changes this session's copy of its profile (tab colour, badge…); values are JSON-encoded here. */
  async setProfileProperties(session: string, properties: Record<string, unknown>): Promise<void> {
    const assignments = Object.entries(properties).map(([key, value]) => ({ key, json_value: JSON.stringify(value) }));
    const r = await this.request({ set_profile_property_request: { session, assignments } });
    checkStatus("set profile property", r.status);
  }

  /** Brings the session's window to the front and selects its tab and pane. */
  async activate(session: string): Promise<void> {
    const r = await this.request({
      activate_request: { session_id: session, order_window_front: true, select_tab: true, select_session: true, activate_app: { raise_all_windows: false, ignoring_other_apps: true } },
    });
    checkStatus("activate", r.status);
  }

  /** Values of the named variables (JSON-decoded; null when unset). */
  async getVariables(scope: VariableScope, names: string[]): Promise<unknown[]> {
    const r = await this.request({ variable_request: { ...scopeOf(scope), get: names } });
    checkStatus("get variables", r.status);
    return (r.values ?? []).map((v: string) => (v === undefined || v === "" ? null : JSON.parse(v)));
  }

  /** Sets user variables (names start with "user."); null unsets. */
  async setVariables(scope: VariableScope, values: Record<string, unknown>): Promise<void> {
    const set = Object.entries(values).map(([name, value]) => ({ name, value: JSON.stringify(value) }));
    const r = await this.request({ variable_request: { ...scopeOf(scope), set } });
    checkStatus("set variables", r.status);
  }

  /** Feeds bytes to the session's terminal as if its program had written them. */
  async inject(session: string, data: Buffer): Promise<void> {
    const r = await this.request({ inject_request: { session_id: [session], data } });
    const [status] = r.status ?? ["OK"];
    checkStatus("inject", status);
  }

  async setGridSize(session: string, rows: number, cols: number): Promise<void> {
    const r = await this.request({ set_property_request: { session_id: session, name: "grid_size", json_value: JSON.stringify({ width: cols, height: rows }) } });
    checkStatus("resize", r.status, ["OK", "DEFERRED"]);
  }

  async closeSessions(sessionIds: string[], force = true): Promise<void> {
    const r = await this.request({ close_request: { sessions: { session_ids: sessionIds }, force } });
    for (const status of r.statuses ?? []) checkStatus("close", status, ["OK", "NOT_FOUND"]);
  }

  close(): void {
    this.onClose("closed by termhive");
    this.socket.close();
  }
}

function sessionsIn(node: Record<string, any> | undefined): Record<string, any>[] {
  if (!node) return [];
  return (node.links ?? []).flatMap((link: Record<string, any>) => (link.session ? [link.session] : sessionsIn(link.node)));
}

function profileProperties(profile: Record<string, unknown>): { key: string; json_value: string }[] {
  return Object.entries(profile).map(([key, value]) => ({ key, json_value: JSON.stringify(value) }));
}

function scopeOf(scope: VariableScope): Record<string, unknown> {
  if (scope === "app") return { app: true };
  if ("session" in scope) return { session_id: scope.session };
  if ("tab" in scope) return { tab_id: scope.tab };
  return { window_id: scope.window };
}

/** Unset status means OK (proto2 default); anything else not in `ok` is an error naming it. */
function checkStatus(what: string, status: unknown, ok: string[] = ["OK"]): void {
  if (status === undefined || ok.includes(String(status))) return;
  throw new Iterm2Error(`iTerm2 could not ${what}: ${String(status)}`);
}

function openSocket(endpoint: Iterm2Endpoint, credentials: Iterm2Credentials | null): Promise<WebSocket> {
  const headers: Record<string, string> = {
    origin: "ws://localhost/",
    "x-iterm2-library-version": LIBRARY_VERSION,
    "x-iterm2-advisory-name": `termhive ${VERSION}`,
    // No "Allow Python API usage?" dialog for a connection without a valid cookie: iTerm2
    // refuses it (401) at once instead, and a fresh cookie is asked for (connect()).
    "x-iterm2-disable-auth-ui": "true",
    ...(credentials ? { "x-iterm2-cookie": credentials.cookie, "x-iterm2-key": credentials.key } : {}),
  };
  // The socket's path holds a space ("Application Support"), which a ws+unix: URL would
  // percent-encode into a path that does not exist: the connection is made here instead.
  const url = endpoint.kind === "unix" ? "ws://localhost/" : endpoint.url;
  const where = endpoint.kind === "unix" ? endpoint.path : endpoint.url;
  const socket = new WebSocket(url, [SUBPROTOCOL], {
    headers,
    handshakeTimeout: CONNECT_TIMEOUT_MS,
    perMessageDeflate: false,
    ...(endpoint.kind === "unix" ? { createConnection: () => netConnect(endpoint.path) } : {}),
  });
  return new Promise((resolve, reject) => {
    // ws's handshakeTimeout does not cover a connection made by createConnection (the unix
    // socket): without this, an iTerm2 that accepts and never answers hangs every call.
    const timer = setTimeout(() => {
      reject(new Iterm2Error(
        `iTerm2 at ${where} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s: is a dialog (such as "Allow Python API usage?") waiting in iTerm2? Answer it, then try again`,
      ));
      socket.terminate();
    }, CONNECT_TIMEOUT_MS);
    timer.unref();
    socket.once("open", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      socket.removeAllListeners("unexpected-response");
      resolve(socket);
    });
    socket.once("unexpected-response", (_req, res) => {
      clearTimeout(timer);
      const status = res.statusCode ?? 0;
      reject(new Iterm2Refusal(refusalMessage(where, status, credentials !== null), status));
      socket.terminate();
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(new Iterm2Error(`iTerm2 is not reachable at ${where}: ${error.message}`));
    });
  });
}

/** What an HTTP refusal of the handshake means, per iTerm2's server (iTermAPIServer.m). */
function refusalMessage(where: string, status: number, hadCookie: boolean): string {
  const head = `iTerm2 at ${where} refused the connection (HTTP ${status})`;
  if (status === 406) return `${head}: termhive's API library version (${LIBRARY_VERSION}) is older than this iTerm2 accepts; update termhive`;
  if (status === 401) {
    // termhive asks for no "Allow Python API usage?" dialog (x-iterm2-disable-auth-ui): the
    // cookie comes from AppleScript, which needs the Automation permission to ask iTerm2.
    const hint = hadCookie
      ? "the cookie/key were not accepted (iTerm2 takes each cookie once; no fresh one could be had)"
      : "no cookie/key: termhive asks iTerm2 for one through AppleScript (osascript), which the app termhive runs in must be allowed to do (System Settings > Privacy & Security > Automation > iTerm2); or set ITERM2_COOKIE and ITERM2_KEY";
    return `${head}: ${hint}; the Python API must be enabled in iTerm2 > Settings > General > Magic`;
  }
  return head;
}
