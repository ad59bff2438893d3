// hive_message: a cascade (broadcast, then team texts, then agent texts; the most specific
// wins per session, hive/rules/cascade.ts) typed into each addressed pane now, or queued in the
// outbox when the busy rule (hive/rules/busy-rule.ts) says the agent is on something.
import { checkMessageSize } from "../rules/message-size.js";
import type { AgentRecord } from "../index.js";
import type { DeliveryResult } from "../../terminal/typing/delivery.js";
import type { Crew } from "../live/crew.js";
import { recordCascade } from "../messages/message-log.js";
import { literalText } from "../../terminal/model/literal-text.js";

export interface CascadeInput {
  broadcast?: string;
  teams?: Record<string, string>;
  agents?: Record<string, string>;
  submit?: boolean;
  confirm?: boolean;
  when?: "idle" | "now";
}

/** What became of one session's text in hive_message. */
export interface MessageDelivery {
  session: string;
  agents: string[];
  source: string;
  level: string;
  delivered: boolean;
  /** The outbox id: the agent was busy, the text waits for its next idle moment. */
  queued?: number;
  attempts?: number;
  method?: "paste" | "typed";
  note?: string;
  error?: string;
}

export async function deliverCascade(crew: Crew, input: CascadeInput) {
  if (input.broadcast !== undefined) checkMessageSize(input.broadcast, "broadcast");
  for (const [team, text] of Object.entries(input.teams ?? {})) checkMessageSize(text, `the text for team ${team}`);
  for (const [agent, text] of Object.entries(input.agents ?? {})) checkMessageSize(text, `the text for agent ${agent}`);
  await crew.sync();
  const { hive, registry } = crew;
  const plan = hive.planCascade({ broadcast: input.broadcast, teams: input.teams, agents: input.agents });
  const submit = input.submit ?? true;
  // Every text passes the same checks as terminal_send (size limit; safety gate when Enter
  // runs it as a command wherever the agent is a shell) before any is typed or queued, so a
  // refusal delivers nothing to anyone.
  // All at once: each reads its pane's pending line (a tmux round trip), and one at a time
  // they cost a cascade to 32 agents 10-20 ms before anything was typed.
  // A pane on a host that is down (its agents not exited: crew.sync) waits for the host like a
  // busy agent for idle; so does one on a host the sync's listing left out while its link
  // stays up (frozen, or a link gone silent): typing there would hang until ssh gives up.
  const unreachable = new Set(plan.deliveries.filter((d) => d.agents.some((n) => crew.hostDown(hive.launches.find(n)?.host))).map((d) => d.sessionId));
  const { policy } = crew.deps;
  try {
    await Promise.all(plan.deliveries.map(async (d) => {
      const session = registry.byId(d.sessionId);
      if (session && !unreachable.has(d.sessionId)) await policy.check(d.text, session, { enter: submit, confirm: input.confirm });
      else if (unreachable.has(d.sessionId)) {
        // Its input line cannot be read now: the text is judged alone, as what Enter will run.
        const literal = literalText(d.text).text;
        policy.checkSize(literal);
        if (submit || literal.includes("\n")) await policy.gate(literal, input.confirm, undefined, ` (for ${d.agents.join(", ")}, whose host is down)`);
      }
    }));
  } catch (error) {
    recordCascade(hive.events, plan.assignments, new Map(), `safety gate: ${(error as Error).message}`);
    throw error;
  }
  const when = input.when ?? "idle";
  const deliveries = await Promise.all(plan.deliveries.map(async (d): Promise<MessageDelivery> => {
    const base = { session: d.sessionId, agents: d.agents, source: d.source, level: d.level };
    // Decided in one write transaction: type now (and begin the turn, so a cascade arriving
    // a moment later sees the agent busy and queues behind) or queue for the next idle moment.
    const down = unreachable.has(d.sessionId);
    const queued = hive.store.write(() => {
      const agents = d.agents.map((n) => hive.agents.find(n)).filter((a): a is AgentRecord => a !== undefined);
      if (down || (when === "idle" && !crew.mayTypeMessage(d.sessionId, agents))) {
        return hive.outbox.add({ sessionId: d.sessionId, agents: d.agents, text: d.text, level: d.level, source: d.source, submit });
      }
      hive.turns.begin(d.agents);
      return undefined;
    });
    if (queued) return { ...base, delivered: false, queued: queued.id, note: down ? "its host is down: queued, typed once the host is back and the agent idle (a delivered or expired event follows)" : "the agent is busy: queued, typed when it is next idle (a delivered or expired event follows)" };
    let result: DeliveryResult | undefined;
    let error: string | undefined;
    try {
      result = await crew.typeMessage(crew.liveSession(d.sessionId), d.text, submit);
    } catch (e) {
      error = (e as Error).message;
    }
    crew.turnAfterTyping(d.agents, result?.delivered ?? false, result ?? {});
    return { ...base, delivered: result?.delivered ?? false, ...(result ? { attempts: result.attempts, method: result.method, ...(result.confirmedBy ? { confirmedBy: result.confirmedBy } : {}) } : {}), ...(result?.note ? { note: result.note } : {}), ...(error ? { error } : {}) };
  }));
  const bySession = new Map(deliveries.map((d) => [d.session, d]));
  recordCascade(hive.events, plan.assignments, bySession);
  const assignments = plan.assignments.map((a) => {
    const d = bySession.get(a.sessionId);
    const queued = a.delivered && d?.queued !== undefined;
    return {
      agent: a.agent, source: a.source, text: a.text,
      delivered: a.delivered && (d?.delivered ?? false),
      ...(queued ? { queued: true } : {}),
      ...(a.note ? { note: a.note } : {}),
    };
  });
  const queuedCount = deliveries.filter((d) => d.queued !== undefined).length;
  const delivered = deliveries.filter((d) => d.delivered).length;
  // An agent the plan did not send to (it has exited) is a failure too: the counts said 0 beside its "NOT delivered" line.
  const notSent = plan.assignments.filter((a) => !a.delivered).length;
  return { deliveries, assignments, delivered, queued: queuedCount, failed: deliveries.length - delivered - queuedCount + notSent };
}
