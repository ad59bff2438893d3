// Writes <home>/serve.json (util/serve-record.ts reads it) once a serve listens, and removes it
// when that serve stops.
import { rmSync, writeFileSync } from "node:fs";
import { readServeRecord, serveRecordPath, type ServeRecord } from "../util/serve-record.js";

export { dashboardUrl, readServeRecord, serveRecordPath, type ServeRecord } from "../util/serve-record.js";

export function writeServeRecord(home: string, record: ServeRecord): () => void {
  const path = serveRecordPath(home);
  writeFileSync(path, JSON.stringify(record) + "\n", { mode: 0o600 });
  return () => {
    // Only ours: a later serve on the same home may have written its own since.
    if (readServeRecord(home)?.pid === record.pid) rmSync(path, { force: true });
  };
}
