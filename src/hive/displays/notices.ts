// The notices display: notifications off the machine (hive/notify), started when the crew
// opens the hive if anything is configured (notify-start.ts), and woken on every change this
// process records or follows.
import type { AuditLog } from "../../audit.js";
import type { AgentRecord } from "../index.js";
import { Emitter } from "../../util/event.js";
import { startNotifier } from "./notify-start.js";
import type { DisplayContext, StatusDisplay } from "./status-display.js";

export interface NoticeSettings {
  /** TERMHIVE_HOME (notify.json, the needs-you link). */
  home: string;
  /** TERMHIVE_NOTIFY_URL's URLs. */
  notifyUrls: readonly string[];
  audit: AuditLog;
  /** A session's name by its id, for a notice's text. */
  sessionName: (sessionId: string) => string | undefined;
}

export class Notices implements StatusDisplay {
  private readonly changes = new Emitter<AgentRecord>();
  private stop: (() => void) | undefined;

  constructor(private readonly settings: NoticeSettings) {}

  start({ hive }: DisplayContext): void {
    const { home, notifyUrls, audit, sessionName } = this.settings;
    this.stop ??= startNotifier(hive, { home, notifyUrls }, audit, this.changes.event, sessionName);
  }

  changed(agent: AgentRecord): void {
    this.changes.fire(agent);
  }

  dispose(): void {
    this.stop?.();
    this.stop = undefined;
  }
}
