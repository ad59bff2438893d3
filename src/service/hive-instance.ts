// One HiveService per TermhiveService, whichever door asks first: the hive store, status
// tracker and watch scanner exist once per process, so MCP and gRPC callers see the same
// statuses, skip_duplicates memory and watchers.
import { startIterm2Status } from "../iterm2/decorations.js";
import { HiveService } from "./hive-service.js";
import { reportRecordingNotices } from "./recording-events.js";
import type { TermhiveService } from "./service.js";

const hiveServices = new WeakMap<TermhiveService, HiveService>();

export function hiveServiceFor(service: TermhiveService): HiveService {
  let hive = hiveServices.get(service);
  if (!hive) {
    const created = new HiveService(service);
    hiveServices.set(service, created);
    // Stops the status tracker's and watch scanner's timers and closes SQLite (if it was opened).
    service.onShutdown(() => created.close());
    service.onShutdown(reportRecordingNotices(created));
    service.onShutdown(startIterm2Status(created));
    hive = created;
  }
  return hive;
}
