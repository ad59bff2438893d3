import { z } from "zod";
import { targets } from "./schemas/hive.js";
import { WRITES, defineVerb } from "./verb.js";
import { targetsFromWire, targetsToWire, type WireRow } from "./wire.js";

export default defineVerb({
  name: "hive_watch",
  title: "Watch output for a regex",
  description: "Add a persisted regex watcher over targets (hits are hive_events), or remove one by id. Returns the watchers.",
  input: { targets: targets.optional(), pattern: z.string().max(1000).optional(), flags: z.string().max(4).optional(), label: z.string().max(100).optional(), remove: z.number().int().optional() },
  family: "hive",
  annotations: WRITES,
  run: (s, input) => s.hive().watch(input),
  text: (r) => r.watchers.map((w) => `#${w.id} /${w.pattern}/${w.flags} on ${JSON.stringify(w.target)}`).join("\n") || "no watchers",
  grpc: "HiveWatch",
  // A watcher's target is a targets spec: on the wire, HiveTargets.
  wire: {
    encode: (result) => {
      const watcher = (w: WireRow | undefined) => w && { ...w, target: targetsToWire(w.target) };
      return { added: watcher(result.added), removed: watcher(result.removed), watchers: result.watchers.map(watcher) };
    },
    decode: (r) => {
      const watcher = (w: WireRow | undefined) => w && { ...w, target: targetsFromWire(w.target) };
      return { ...(r.added ? { added: watcher(r.added) } : {}), ...(r.removed ? { removed: watcher(r.removed) } : {}), watchers: r.watchers.map(watcher) };
    },
  },
  nullable: { "added.label": true, "removed.label": true, "watchers[].label": true },
});
