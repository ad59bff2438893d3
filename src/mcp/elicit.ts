// A command the safety gate refuses is put to the person at the client when the client can ask
// one: accept runs it as confirmed, decline or cancel refuses it. Where the client cannot ask
// (no elicitation capability, or TERMHIVE_ELICIT=off), the refusal goes back to the model as
// before, which may resend with confirm: true.
//
// Why two ways: a 2025 client is asked by elicitation/create while the call waits (the
// connection has a session to send it on). A 2026-07-28 client has no server→client requests:
// the call answers `input_required` with the question and a sealed `requestState` holding the
// refused call's digest, and the client retries the same call with the person's answer. The
// retry may reach another termhive process on the same home (a client's probe sibling, a
// stateless HTTP door), so the seal's key is the home's (confirm-seal.ts), not the process's.
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import type { ClientCapabilities, ElicitRequestFormParams, ElicitResult, InputRequiredResult, ServerContext } from "@modelcontextprotocol/server";
import { ToolError } from "../util/tool-error.js";
import { callDigest, claimOnce, mintConfirm, openConfirm } from "./confirm-seal.js";

/** What asking needs of the MCP server: the client's capabilities and elicitation/create. */
export interface Elicitor {
  getClientCapabilities(): { elicitation?: object } | undefined;
  elicitInput(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

/** The call being confirmed: its tool, its request's context and the termhive home sealing its state. */
export interface ConfirmCall {
  tool: string;
  ctx: ServerContext;
  home: string;
}

const GATE_REFUSAL = /^refused by the safety gate: /;
/** The key of the one embedded question in a 2026 `input_required` answer. */
const ASK_KEY = "termhive_confirm";

function gateRefusal(error: unknown): error is ToolError {
  return error instanceof ToolError && error.code === "refused" && GATE_REFUSAL.test(error.message);
}

function question(error: ToolError, input: Record<string, unknown>): { reason: string; params: ElicitRequestFormParams } {
  const reason = error.message.replace(GATE_REFUSAL, "").replace(/ Nothing was sent\..*$/s, "");
  const typed = String(input.command ?? input.text ?? "");
  const what = typed.length > 500 ? `${typed.slice(0, 500)}…` : typed;
  return {
    reason,
    params: { mode: "form", message: `termhive's safety gate stopped this: ${what}\nWhy: ${reason}\nRun it anyway?`, requestedSchema: { type: "object", properties: {} } },
  };
}

function declined(reason?: string): ToolError {
  return new ToolError(`refused: the person at the client declined it${reason ? ` (${reason})` : ""}. Nothing was sent.`, "refused");
}

/** A 2026-07-28 request names its revision in its own `_meta` envelope; a 2025 one never does. */
function modernRequest(ctx: ServerContext): boolean {
  const claimed = ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY as keyof typeof ctx.mcpReq.envelope] as unknown;
  return typeof claimed === "string" && claimed >= "2026";
}

/** A form elicitation the request's own envelope says its client can show. */
function canAskForm(ctx: ServerContext): boolean {
  const declared = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as ClientCapabilities | undefined;
  const elicitation = declared?.elicitation as { form?: object; url?: object } | undefined;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/**
 * Runs the call; a safety-gate refusal is asked about when the client can ask (elicitor
 * undefined: TERMHIVE_ELICIT=off). In the 2026 era the answer may be the question itself
 * (`input_required`); the client's retry carrying the person's answer comes back here.
 */
export async function confirmByPerson<R>(
  elicitor: Elicitor | undefined,
  input: Record<string, unknown>,
  run: (input: Record<string, unknown>) => Promise<R> | R,
  call?: ConfirmCall,
): Promise<R | InputRequiredResult> {
  const echoed = call?.ctx.mcpReq.requestState();
  if (call && echoed !== undefined) return await answered(elicitor !== undefined, input, run, call, echoed);
  try {
    return await run(input);
  } catch (error) {
    if (!gateRefusal(error) || !elicitor) throw error;
    if (call && modernRequest(call.ctx)) {
      if (!canAskForm(call.ctx)) throw error;
      const { reason, params } = question(error, input);
      const requestState = await mintConfirm(call.home, callDigest(call.tool, input), reason);
      return inputRequired({ inputRequests: { [ASK_KEY]: inputRequired.elicit(params) }, requestState });
    }
    return await askNow(elicitor, error, input, run);
  }
}

/** 2025: elicitation/create while the call waits. */
async function askNow<R>(elicitor: Elicitor, error: ToolError, input: Record<string, unknown>, run: (input: Record<string, unknown>) => Promise<R> | R): Promise<R> {
  if (!elicitor.getClientCapabilities()?.elicitation) throw error;
  const { reason, params } = question(error, input);
  // A client that fails to ask (error, timeout) leaves the refusal as it was.
  const answer = await elicitor.elicitInput(params).catch(() => undefined);
  if (!answer) throw error;
  if (answer.action !== "accept") throw declined(reason);
  return await run({ ...input, confirm: true });
}

/** 2026: the retry of a call termhive answered with its question; runs it only on a yes sealed for this very call. */
async function answered<R>(asks: boolean, input: Record<string, unknown>, run: (input: Record<string, unknown>) => Promise<R> | R, call: ConfirmCall, echoed: unknown): Promise<R> {
  const refuse = (why: string) => new ToolError(`refused: ${why}. Nothing was sent; call it again to have the person asked again.`, "refused");
  if (!asks) throw refuse("this call carries a requestState, but this termhive asks no person (TERMHIVE_ELICIT=off)");
  if (typeof echoed !== "string") throw refuse("its requestState is not a string termhive minted");
  const sealed = await openConfirm(call.home, echoed, call.ctx);
  if ("invalid" in sealed) throw refuse(sealed.invalid);
  if (sealed.digest !== callDigest(call.tool, input)) throw refuse(`its requestState confirms another call, not this ${call.tool} with these arguments`);
  const answer = inputResponse(call.ctx.mcpReq.inputResponses, ASK_KEY);
  if (answer.kind !== "elicit") throw refuse("its retry carries no answer from the person to the question asked");
  if (answer.action !== "accept") throw declined(sealed.reason);
  if (!claimOnce(call.home, sealed.nonce)) throw refuse("the person's yes in this requestState was already used: it ran the call once");
  return await run({ ...input, confirm: true });
}
