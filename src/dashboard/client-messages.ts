// Checks each frame a page sends before anything acts on it: JSON, a known type, the
// fields it needs, sizes within bounds. Anything else is refused (the caller logs it).
import { z } from "zod";
import type { ClientMessage } from "./protocol.js";

const name = z.string().min(1).max(200);
const id = z.number().int().nonnegative();

const schema = z.discriminatedUnion("t", [
  z.object({ t: z.literal("watch"), sessions: z.array(name).max(64) }).strict(),
  z.object({ t: z.literal("takeover"), session: name, on: z.boolean() }).strict(),
  z.object({ t: z.literal("input"), session: name, data: z.string().min(1).max(16 * 1024) }).strict(),
  z.object({
    t: z.literal("message"),
    id,
    to: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("everyone") }).strict(),
      z.object({ kind: z.literal("team"), name }).strict(),
      z.object({ kind: z.literal("agent"), name }).strict(),
    ]),
    text: z.string().min(1).max(64 * 1024),
    confirm: z.boolean().optional(),
  }).strict(),
  z.object({ t: z.literal("mailbox"), id, agent: name }).strict(),
]);

export type Parsed = { ok: true; message: ClientMessage } | { ok: false; reason: string };

export function parseClientMessage(raw: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join(".") || "frame"}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, message: parsed.data as ClientMessage };
}
