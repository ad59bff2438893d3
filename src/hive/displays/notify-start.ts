// Starts this process's notifier (hive/notify) when the crew opens the hive, if anything is
// configured, and wakes it on every agent change this process records or follows (the poll
// covers watcher hits and changes no event here announces). A bad notify.json turns
// notifications off with one clear message (stderr and the audit log); it never stops the hive.
import type { AuditLog } from "../../audit.js";
import type { AgentRecord, Hive } from "../index.js";
import { loadNotifyConfig, Notifier } from "../notify/index.js";
import type { Event } from "../../util/event.js";
import { needsYouLink } from "../../util/serve-record.js";

export function startNotifier(
  hive: Hive,
  settings: { home: string; notifyUrls: readonly string[] },
  audit: AuditLog,
  onAgentChanged: Event<AgentRecord>,
  sessionName: (id: string) => string | undefined,
): () => void {
  let notifier: Notifier;
  try {
    const config = loadNotifyConfig(settings.home, settings.notifyUrls);
    if (config.endpoints.length === 0) return () => {};
    notifier = new Notifier(hive, config, (entry) => audit.write(entry), { sessionName, needsYouLink: (agent) => needsYouLink(settings.home, agent) });
  } catch (error) {
    const reason = (error as Error).message;
    process.stderr.write(`termhive: notifications are off: ${reason}\n`);
    audit.write({ event: "notify_config", outcome: "off", reason });
    return () => {};
  }
  const subscription = onAgentChanged(() => notifier.wake());
  return () => {
    subscription.dispose();
    notifier.dispose();
  };
}
