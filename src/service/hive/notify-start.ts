// Starts this process's notifier (hive/notify) when the hive is opened, if anything is
// configured, and wakes it on every status change this process records (the poll covers
// changes from other processes). A bad notify.json turns notifications off with one clear
// message (stderr and the audit log); it never stops the hive.
import type { EventEmitter } from "node:events";
import type { AuditLog } from "../../audit.js";
import type { Hive } from "../../hive/index.js";
import { loadNotifyConfig, Notifier } from "../../hive/notify/index.js";

export function startNotifier(
  hive: Hive,
  settings: { home: string; notifyUrls: string[] },
  audit: AuditLog,
  changes: EventEmitter,
  sessionName: (id: string) => string | undefined,
): () => void {
  let notifier: Notifier;
  try {
    const config = loadNotifyConfig(settings.home, settings.notifyUrls);
    if (config.endpoints.length === 0) return () => {};
    notifier = new Notifier(hive, config, (entry) => audit.write(entry), { sessionName });
  } catch (error) {
    const reason = (error as Error).message;
    process.stderr.write(`termhive: notifications are off: ${reason}\n`);
    audit.write({ event: "notify_config", outcome: "off", reason });
    return () => {};
  }
  const wake = () => notifier.wake();
  changes.on("change", wake);
  return () => {
    changes.off("change", wake);
    notifier.stop();
  };
}
