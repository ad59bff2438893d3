// Layouts: several named panes in one window, and saved arrangements to restore later.
//
// `splitPlan(kind, n)` is the pure part the tmux layer executes: start from one pane (index 0),
// run the split steps in order (step k creates pane k+1), then apply `selectLayout` if not null.
// Every step splits the most recently created pane, so tmux's pane order (pane_index) equals
// our pane index — pane i of the spec is pane_index i in the window, whichever layout is
// chosen afterwards. The percentages make the geometry right even before `select-layout`
// (each new pane takes its share of what is left); `select-layout` then evens out rounding.
import type { SplitDirection, WindowLayout } from "../../backends/backend.js";
import { NAME_RULE, isValidName } from "../../util/names.js";
import { z } from "zod";
import type { HiveStore } from "./store.js";
import { HiveError, checkName, unknownName } from "./errors.js";
import { sandboxOption } from "../../sandbox/policy.js";

export const LAYOUT_KINDS = ["single", "horizontal", "vertical", "quad", "main-vertical", "main-horizontal", "tiled"] as const;
export type LayoutKind = (typeof LAYOUT_KINDS)[number];

/** A window with more panes than this is unreadable on any screen; tmux also needs ≥ 2 rows per pane. */
export const MAX_LAYOUT_PANES = 32;

/** Allowed pane counts per layout kind. `horizontal`: side by side (left→right); `vertical`: stacked. */
export const PANE_COUNTS: Readonly<Record<LayoutKind, { min: number; max: number }>> = {
  single: { min: 1, max: 1 },
  horizontal: { min: 2, max: MAX_LAYOUT_PANES },
  vertical: { min: 2, max: MAX_LAYOUT_PANES },
  quad: { min: 4, max: 4 },
  "main-vertical": { min: 2, max: MAX_LAYOUT_PANES },
  "main-horizontal": { min: 2, max: MAX_LAYOUT_PANES },
  tiled: { min: 1, max: MAX_LAYOUT_PANES },
};

export type { SplitDirection, WindowLayout };

export interface SplitStep {
  /** Index of the pane to split (an earlier pane of this plan). */
  splitFrom: number;
  /** Where the new pane goes relative to `splitFrom` (right/below: tmux -h / -v; left/above add -b). */
  direction: SplitDirection;
  /** Size of the new pane, percent of the split pane. */
  percent: number;
  /** Index of the pane this step creates. */
  creates: number;
}

export interface SplitPlan {
  kind: LayoutKind;
  panes: number;
  steps: SplitStep[];
  /** tmux `select-layout` name to apply after the splits, or null when the splits are the layout. */
  selectLayout: WindowLayout | null;
}

function checkCount(kind: LayoutKind, n: number): void {
  const range = PANE_COUNTS[kind];
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    const want = range.min === range.max ? `exactly ${range.min}` : `${range.min} to ${range.max}`;
    throw new HiveError("invalid", `layout '${kind}' takes ${want} panes, got ${String(n)}`);
  }
}

/** Share for a new pane split off the last one when `remaining` panes (including it) still share that space. */
const share = (remaining: number): number => Math.round((100 * (remaining - 1)) / remaining);

export function splitPlan(kind: LayoutKind, n: number): SplitPlan {
  if (!LAYOUT_KINDS.includes(kind)) {
    throw new HiveError("invalid", `unknown layout '${String(kind)}'; valid layouts: ${LAYOUT_KINDS.join(", ")}`);
  }
  checkCount(kind, n);
  const steps: SplitStep[] = [];
  const chain = (from: number, to: number, direction: SplitDirection, total: number) => {
    // Panes from..to-1 exist as one strip of `total` equal parts being carved off the end.
    for (let i = from; i < to; i++) steps.push({ splitFrom: i - 1, direction, percent: share(total - (i - from)), creates: i });
  };
  switch (kind) {
    case "single":
      return { kind, panes: 1, steps, selectLayout: null };
    case "horizontal":
      chain(1, n, "right", n);
      return { kind, panes: n, steps, selectLayout: "even-horizontal" };
    case "vertical":
      chain(1, n, "below", n);
      return { kind, panes: n, steps, selectLayout: "even-vertical" };
    case "main-vertical":
      // Pane 0 is the main pane on the left; the others stack in the right column.
      steps.push({ splitFrom: 0, direction: "right", percent: 50, creates: 1 });
      chain(2, n, "below", n - 1);
      return { kind, panes: n, steps, selectLayout: "main-vertical" };
    case "main-horizontal":
      // Pane 0 is the main pane on top; the others sit side by side below it.
      steps.push({ splitFrom: 0, direction: "below", percent: 50, creates: 1 });
      chain(2, n, "right", n - 1);
      return { kind, panes: n, steps, selectLayout: "main-horizontal" };
    case "quad":
    case "tiled":
      // Alternating splits keep panes roughly square before `tiled` lays them out in rows:
      // for quad that is 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
      for (let i = 1; i < n; i++) steps.push({ splitFrom: i - 1, direction: i % 2 === 1 ? "right" : "below", percent: 50, creates: i });
      return { kind, panes: n, steps, selectLayout: n === 1 ? null : "tiled" };
  }
}

// ---- saved arrangements ----------------------------------------------------------------

const nameField = (kind: string) =>
  z.string().refine(isValidName, `invalid ${kind} name: ${NAME_RULE}`);

export const PaneSpecSchema = z
  .object({
    name: nameField("pane").optional(),
    command: z.string().min(1).optional(),
    cwd: z.string().min(1).optional(),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "invalid environment variable name"), z.string()).optional(),
    agent: nameField("agent").optional(),
    team: nameField("team").optional(),
    profile: nameField("profile").optional(),
    host: z.string().min(1).max(512).optional(),
    sandbox: sandboxOption.optional(),
    /** As agent_spawn's: an agent pane with a profile's dangerous flag starts without a sandbox. */
    confirm: z.boolean().optional(),
  })
  .strict();

export const LayoutSpecSchema = z
  .object({
    kind: z.enum(LAYOUT_KINDS),
    /** Pane count for a layout given without `panes` (e.g. tiled of 6 plain shells). */
    count: z.number().int().positive().optional(),
    panes: z.array(PaneSpecSchema).optional(),
  })
  .strict();

export type PaneSpec = z.infer<typeof PaneSpecSchema>;
export interface LayoutSpec {
  kind: LayoutKind;
  panes: PaneSpec[];
}

/** Validates a layout spec (pane count for the kind, unique pane and agent names) and fills `panes`. */
export function parseLayoutSpec(input: unknown): LayoutSpec {
  const parsed = LayoutSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => {
        // zod reports a bad record key only as "Invalid key in record"; env is our only record.
        const message = i.code === "invalid_key" ? "invalid environment variable name (letters, digits, _)" : i.message;
        return `${i.path.join(".") || "(spec)"}: ${message}`;
      })
      .join("; ");
    throw new HiveError("invalid", `invalid layout spec: ${issues}`);
  }
  const { kind, count, panes } = parsed.data;
  if (count !== undefined && panes !== undefined && count !== panes.length) {
    throw new HiveError("invalid", `layout spec says count ${count} but lists ${panes.length} panes`);
  }
  const list: PaneSpec[] = panes ?? Array.from({ length: count ?? PANE_COUNTS[kind].min }, () => ({}));
  checkCount(kind, list.length);
  for (const key of ["name", "agent"] as const) {
    const seen = new Set<string>();
    for (const p of list) {
      const v = p[key];
      if (v === undefined) continue;
      if (seen.has(v)) throw new HiveError("duplicate", `layout spec uses ${key} '${v}' for two panes`);
      seen.add(v);
    }
  }
  return { kind, panes: list };
}

export interface SavedLayout {
  name: string;
  spec: LayoutSpec;
  createdAt: number;
  updatedAt: number;
}

interface LayoutRow {
  name: string;
  spec: string;
  created_at: number;
  updated_at: number;
}

const toLayout = (r: LayoutRow): SavedLayout => ({
  name: r.name,
  spec: JSON.parse(r.spec) as LayoutSpec,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class Layouts {
  constructor(private readonly store: HiveStore) {}

  /** Saves an arrangement; refuses an existing name unless `replace: true`. */
  save(name: string, spec: unknown, options: { replace?: boolean } = {}): SavedLayout {
    checkName("layout", name);
    const valid = parseLayoutSpec(spec);
    return this.store.write(() => {
      const existing = this.find(name);
      if (existing && !options.replace) {
        throw new HiveError("duplicate", `layout '${name}' already exists; pass replace: true to overwrite it`);
      }
      const now = Date.now();
      const saved: SavedLayout = { name, spec: valid, createdAt: existing?.createdAt ?? now, updatedAt: now };
      this.store.db
        .prepare(
          `INSERT INTO layouts (name, spec, created_at, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT(name) DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at`,
        )
        .run(name, JSON.stringify(valid), saved.createdAt, now);
      return saved;
    });
  }

  find(name: string): SavedLayout | undefined {
    const row = this.store.read(() => this.store.db.prepare("SELECT * FROM layouts WHERE name = ?").get(name)) as LayoutRow | undefined;
    return row ? toLayout(row) : undefined;
  }

  get(name: string): SavedLayout {
    const layout = this.find(name);
    if (!layout) throw unknownName("layout", name, this.list().map((l) => l.name));
    return layout;
  }

  list(): SavedLayout[] {
    const rows = this.store.read(() => this.store.db.prepare("SELECT * FROM layouts ORDER BY name").all()) as LayoutRow[];
    return rows.map(toLayout);
  }

  remove(name: string): SavedLayout {
    return this.store.write(() => {
      const layout = this.get(name);
      this.store.db.prepare("DELETE FROM layouts WHERE name = ?").run(name);
      return layout;
    });
  }
}
