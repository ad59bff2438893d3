// One HiveService per TermhiveService, whichever door asks first: the hive store, status
// tracker and watch scanner exist once per process, so MCP and gRPC callers see the same
// statuses, skip_duplicates memory and watchers.
import { HiveService } from "./hive-service.js";
import type { TermhiveService } from "./service.js";

const hiveServices = new WeakMap<TermhiveService, HiveService>();

export function hiveServiceFor(service: TermhiveService): HiveService {
  let hive = hiveServices.get(service);
  if (!hive) hiveServices.set(service, (hive = new HiveService(service)));
  return hive;
}
