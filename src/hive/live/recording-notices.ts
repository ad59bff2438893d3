// Recording changes (off after a failed write, back on, rotated) become hive lifecycle events
// (when a hive exists),
// one stderr line and an audit entry, so a person or agent learns why a cast has a gap. The
// hive may sit on the same full disk: an event that cannot be stored yet is kept (bounded)
// and retried until it can.
import { onRecordingNotice, type RecordingNotice } from "../../terminal/session/recording.js";
import { hiveExists } from "../store/store.js";
import type { Crew } from "./crew.js";
import type { Terminal } from "../../terminal/ops/terminal.js";
import { toDisposable, type Disposable } from "../../util/lifecycle.js";

const RETRY_MS = 2_000;
const MAX_PENDING = 100;

export function reportRecordingNotices(service: Terminal, crew: Crew): Disposable {
  const pending: { notice: RecordingNotice; at: number }[] = [];
  let timer: NodeJS.Timeout | null = null;

  const flush = () => {
    timer = null;
    // Only into a hive that exists: a rotation must not create hive.db for a user who never used it.
    if (!hiveExists(service.config.home)) return void (pending.length = 0);
    while (pending.length > 0) {
      const { notice, at } = pending[0]!;
      try {
        crew.hive.events.append({ kind: "lifecycle", sessionId: notice.sessionId, data: dataOf(notice) }, at);
      } catch {
        timer = setTimeout(flush, RETRY_MS);
        timer.unref();
        return;
      }
      pending.shift();
    }
  };

  const subscription = onRecordingNotice((notice) => {
    const session = service.registry.byId(notice.sessionId);
    const name = session ? ` (${session.name})` : "";
    if (notice.event !== "recording_rotated") {
      process.stderr.write(
        notice.event === "recording_off"
          ? `termhive: recording of session ${notice.sessionId}${name} is off: ${notice.reason}; retried while output comes\n`
          : `termhive: recording of session ${notice.sessionId}${name} is on again (${notice.missedBytes} bytes missed)\n`,
      );
    }
    service.audit.write({ event: notice.event, session: notice.sessionId, reason: notice.reason, missed_bytes: notice.missedBytes });
    if (pending.length >= MAX_PENDING) pending.shift();
    pending.push({ notice, at: Date.now() });
    if (timer === null) flush();
  });
  return toDisposable(() => {
    subscription.dispose();
    if (timer) clearTimeout(timer);
  });
}

function dataOf(notice: RecordingNotice): Record<string, unknown> {
  return {
    event: notice.event,
    path: notice.path,
    ...(notice.reason !== undefined ? { reason: notice.reason } : {}),
    ...(notice.missedBytes !== undefined ? { missed_bytes: notice.missedBytes } : {}),
  };
}
