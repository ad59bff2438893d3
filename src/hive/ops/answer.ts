// hive_answer: answers the question an agent shows, from its live screen. The question is read
// afresh (never from the stored status, which may lag), an answer given against another
// question's digest is refused before anything is typed, and after typing the screen is
// watched until the question is gone or another one is up: the result says which, so a caller
// never has to guess whether the agent took the answer.
import { planAnswer, type AnswerPlan, type Question } from "../programs/question.js";
import { DIALOG_SETTLE_MS, unknownQuestion, type AgentRecord, type PermissionAsk } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { watchSession } from "../../terminal/waits/watch.js";
import { ToolError } from "../../util/tool-error.js";
import type { Crew } from "../live/crew.js";
import { screenStillMs } from "../live/screen-still.js";

/** A hook may report the dialog a moment before the program draws it: the question is awaited this long. */
const QUESTION_APPEAR_MS = 3_000;
/** How long the screen is watched for the question to go after the answer was typed. */
const GONE_WAIT_MS = 5_000;

export interface AnswerInput {
  agent: string;
  answer: string;
  /** The digest the caller saw (agent_list, hive_events, a notification); absent: answer what is on screen. */
  question?: string;
}

export interface AnswerResult {
  agent: string;
  /** The digest of the question answered. */
  question: string;
  asked: string;
  /** The choice picked ("1. Yes"), or null for a typed text answer. */
  choice: string | null;
  /** What was typed: tmux key names, or the text (then Enter); or the decision handed to the program's waiting hook (nothing typed). */
  typed: { keys: string[] } | { text: string } | { hook: "allow" | "deny" };
  /** The question left the screen (or another took its place) after the answer. */
  gone: boolean;
  /** What the screen shows now. */
  now: { status: string; detail: string; question: string | null };
}

/** How long the program's hook has to pick a decision up (it reads its row every 100 ms). */
const HOOK_TAKE_MS = 5_000;

/** A permission request the agent's hook holds open, as a question: allow (1) or deny (2). */
export function askQuestion(ask: PermissionAsk): Question {
  return { digest: ask.digest, text: `Allow ${ask.tool}: ${ask.summary}?`, choices: [{ number: 1, label: "Yes" }, { number: 2, label: "No" }], cursor: null };
}

/** Answers through the hook: the decision goes in the ask's row, the hook hands it to the program. */
async function answerAsk(crew: Crew, agent: AgentRecord, ask: PermissionAsk, input: AnswerInput, by: AnsweredBy): Promise<AnswerResult> {
  const question = askQuestion(ask);
  refuseStale(agent, question, input.question);
  const word = input.answer.trim().toLowerCase();
  const plan = planOrRefuse(question, word === "allow" ? "1" : word === "deny" ? "2" : input.answer);
  if (plan.kind !== "choice") throw new ToolError(`answer allow (yes, 1) or deny (no, 2). Nothing was sent`);
  const decision = plan.index === 0 ? "allow" : "deny";
  if (!crew.hive.permissionAsks.decide(ask.id, decision, decision === "deny" ? "denied from the termhive hive" : null)) {
    throw new ToolError(`refused: ${agent.name}'s permission request was withdrawn meanwhile (its hook stopped waiting; the program shows its own dialog now). Nothing was sent; read agent_list again`, "refused");
  }
  // Nothing is typed, so no input line records it: an agent may approve another's request
  // (unsandboxed agents may), and the log says which pane did.
  crew.deps.policy.audit.write({ event: "answer", agent: agent.name, session: agent.sessionId, question: question.digest, tool: ask.tool, decision, client: by.clientId, pane: by.pane ?? null });
  let taken = false;
  const deadline = Date.now() + HOOK_TAKE_MS;
  while (!taken && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50)); // the hook is another process: its row is the only signal
    taken = crew.hive.permissionAsks.get(ask.id)?.takenAt != null;
  }
  const now = crew.hive.agents.get(agent.name);
  return {
    agent: agent.name, question: question.digest, asked: describe(question), choice: `${plan.choice.number}. ${plan.choice.label}`,
    typed: { hook: decision }, gone: taken,
    now: { status: now.status, detail: now.statusDetail ?? "", question: crew.hive.permissionAsks.pending(agent.name)?.digest ?? null },
  };
}

function refuseStale(agent: AgentRecord, question: Question, given: string | undefined): void {
  if (given !== undefined && given !== question.digest) {
    throw new ToolError(
      `refused: the question on ${agent.name}'s screen is no longer the one you saw (you answered ${given}; it now asks ${question.digest}: ${describe(question)}). Nothing was typed; read it and answer with question: "${question.digest}"`,
      "refused",
    );
  }
}

function planOrRefuse(question: Question, answer: string): AnswerPlan {
  try {
    return planAnswer(question, answer);
  } catch (error) {
    throw new ToolError(`${(error as Error).message}. Nothing was typed`);
  }
}

/**
 * The question the agent's screen shows now, or null (detection as the status tracker runs it).
 * `settled`: it has been still for DIALOG_SETTLE_MS, so it takes keys now.
 */
export async function questionOnScreen(crew: Crew, agent: AgentRecord, session: TerminalSession): Promise<{ question: Question | null; settled: boolean; status: string; detail: string }> {
  await session.screen.settled();
  const screenLines = session.screen.printedLines();
  let detected = crew.hive.detect(agent, { screenLines, quietMs: Date.now() - session.lastOutputAt });
  // A question no rule knows, taken for one because the program showed no sign of work (unknown-question.ts).
  const unknown = unknownQuestion(crew.hive.profiles.get(agent.profile), agent, detected, { lines: screenLines, stillMs: Infinity });
  if (unknown.kind === "question") detected = unknown.detected;
  const question = detected.status === "waiting_for_input" && detected.question ? detected.question : null;
  return { question, settled: screenStillMs(session, screenLines) >= DIALOG_SETTLE_MS, status: detected.status, detail: detected.detail };
}

type Look = Awaited<ReturnType<typeof questionOnScreen>>;

/** Waits (bounded, on screen events and quiet windows) until `accept` holds for the screen; returns the last look. */
async function watchQuestion(crew: Crew, agent: AgentRecord, session: TerminalSession, accept: (look: Look) => boolean, timeoutMs: number) {
  let last = await questionOnScreen(crew, agent, session);
  if (accept(last)) return { ...last, met: true };
  const r = await watchSession(session, async () => {
    last = await questionOnScreen(crew, agent, session);
    return accept(last) ? true : undefined;
  }, { timeoutMs, quietMs: [50, DIALOG_SETTLE_MS] }).catch(() => "timeout" as const);
  return { ...last, met: r === true };
}

const describe = (q: Question) => `${q.text ? `${q.text} ` : ""}${q.choices.map((c) => (c.number !== null ? `${c.number}. ${c.label}` : c.label)).join(" / ")}`.trim();

/** Who answers: the call's client, and the pane it runs in when it says (service/inputs.ts CallContext). */
export interface AnsweredBy {
  clientId: string;
  pane?: string;
}

export async function answerAgent(crew: Crew, input: AnswerInput, type: (session: TerminalSession, plan: AnswerPlan) => Promise<void>, by: AnsweredBy): Promise<AnswerResult> {
  await crew.sync();
  const agent = crew.hive.agents.get(input.agent);
  const session = crew.liveSession(agent.sessionId);
  // A request the agent's hook holds open is answered through the hook: nothing is typed.
  const ask = crew.hive.permissionAsks.pending(agent.name);
  if (ask) return answerAsk(crew, agent, ask, input, by);
  // A question still being drawn does not take keys yet: the answer waits until it is still
  // (the hold a key sent by hand does not get; hive_wait announces waiting only then too).
  const first = await questionOnScreen(crew, agent, session);
  const appearMs = agent.status === "waiting_for_input" || first.question ? QUESTION_APPEAR_MS : 0;
  const seen = await watchQuestion(crew, agent, session, (l) => l.question !== null && l.settled, appearMs);
  const question = seen.question;
  if (!question) {
    throw new ToolError(`${agent.name} shows no question now (its screen says ${seen.status}: ${seen.detail}); nothing was typed`, "refused");
  }
  refuseStale(agent, question, input.question);
  const plan = planOrRefuse(question, input.answer);
  await type(session, plan);
  const moved = ({ question: q }: Look) => q === null || q.digest !== question.digest;
  let after = await watchQuestion(crew, agent, session, moved, GONE_WAIT_MS);
  // A TUI can drop a key it gets while busy (Claude Code, under load, with its dialog drawn):
  // the same dialog still up with its cursor where it was, 5 s after a one-key choice, did not
  // take it (a taken key closes it within ms). One more press of that key; never for arrows
  // (they moved the cursor) or text (it would be typed twice).
  if (!after.met && plan.kind === "choice" && plan.keys.length === 1 && after.question?.cursor === question.cursor) {
    await type(session, plan);
    after = await watchQuestion(crew, agent, session, moved, GONE_WAIT_MS);
  }
  return {
    agent: agent.name,
    question: question.digest,
    asked: describe(question),
    choice: plan.kind === "choice" ? (plan.choice.number !== null ? `${plan.choice.number}. ${plan.choice.label}` : plan.choice.label) : null,
    typed: plan.kind === "choice" ? { keys: plan.keys } : { text: plan.text },
    gone: after.met,
    now: { status: after.status, detail: after.detail, question: after.question?.digest ?? null },
  };
}
