// A command the safety gate refuses is put to the person at the client when the client can ask
// one (MCP elicitation): accept runs it as confirmed, decline or cancel refuses it. Where the
// client cannot ask (no elicitation capability, or TERMHIVE_ELICIT=off), the refusal goes back
// to the model as before, which may resend with confirm: true.
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/server";
import { ToolError } from "../util/tool-error.js";

/** What asking needs of the MCP server: the client's capabilities and elicitation/create. */
export interface Elicitor {
  getClientCapabilities(): { elicitation?: object } | undefined;
  elicitInput(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

const GATE_REFUSAL = /^refused by the safety gate: /;

function gateRefusal(error: unknown): error is ToolError {
  return error instanceof ToolError && error.code === "refused" && GATE_REFUSAL.test(error.message);
}

/** Runs the call; a safety-gate refusal is asked about when the client supports elicitation. */
export async function confirmByPerson<R>(elicitor: Elicitor | undefined, input: Record<string, unknown>, run: (input: Record<string, unknown>) => Promise<R> | R): Promise<R> {
  try {
    return await run(input);
  } catch (error) {
    if (!gateRefusal(error) || !elicitor?.getClientCapabilities()?.elicitation) throw error;
    const reason = error.message.replace(GATE_REFUSAL, "").replace(/ Nothing was sent\..*$/s, "");
    const typed = String(input.command ?? input.text ?? "");
    const what = typed.length > 500 ? `${typed.slice(0, 500)}…` : typed;
    // A client that fails to ask (error, timeout) leaves the refusal as it was.
    const answer = await elicitor
      .elicitInput({
        mode: "form",
        message: `termhive's safety gate stopped this: ${what}\nWhy: ${reason}\nRun it anyway?`,
        requestedSchema: { type: "object", properties: {} },
      })
      .catch(() => undefined);
    if (!answer) throw error;
    if (answer.action !== "accept") {
      throw new ToolError(`refused: the person at the client declined it (${reason}). Nothing was sent.`, "refused");
    }
    return await run({ ...input, confirm: true });
  }
}
