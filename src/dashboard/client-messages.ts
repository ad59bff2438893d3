// Checks each frame a page sends before anything acts on it: JSON, a known type, the
// fields it needs, sizes within bounds. Anything else is refused (the caller logs it). The
// fields a frame hands on to a verb (message, answer, mailbox) are checked here for their type
// only: their rules (lengths, patterns) are the verb's schema's, which every door applies.
import { z } from "zod";

/** At most this many terminals watched at once by one page (a grid of a full layout is 32). */
const MAX_WATCHED = 64;

const name = z.string().min(1).max(200);
const id = z.number().int().nonnegative();

const target = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("everyone") }).strict(),
  z.object({ kind: z.literal("team"), name }).strict(),
  z.object({ kind: z.literal("agent"), name }).strict(),
]);

const schema = z.discriminatedUnion("t", [
  z.object({ t: z.literal("watch"), sessions: z.array(name).max(MAX_WATCHED) }).strict(),
  z.object({ t: z.literal("takeover"), session: name, on: z.boolean() }).strict(),
  z.object({ t: z.literal("input"), session: name, data: z.string().min(1).max(16 * 1024) }).strict(),
  z.object({
    t: z.literal("message"),
    id,
    to: target,
    text: z.string().max(64 * 1024),
    confirm: z.boolean().optional(),
  }).strict(),
  z.object({ t: z.literal("mailbox"), id, agent: z.string() }).strict(),
  z.object({
    t: z.literal("answer"),
    id,
    agent: z.string(),
    answer: z.string(),
    question: z.string().optional(),
  }).strict(),
]);

/** What a page may send (the page's code is typed by this too, through protocol.ts). */
export type ClientMessage = z.infer<typeof schema>;
export type MessageTarget = z.infer<typeof target>;

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
  return { ok: true, message: parsed.data };
}
