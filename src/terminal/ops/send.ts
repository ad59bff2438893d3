// terminal_send: text, a secret and keys typed into a session, in that order, each judged by the
// input policy before anything is typed (the text and the secret at once, the keys' submits that
// the typed text alone can judge too; a submit after keys it cannot follow, as it comes).
import { resolveKey } from "../../backends/keys.js";
import { ToolError } from "../../util/tool-error.js";
import { planKeys } from "../model/key-plan.js";
import { markLine } from "../live/line-marks.js";
import { EMPTY_TEXT, literalText } from "../model/literal-text.js";
import { keysTakenBy, takenByNote } from "../waits/pager.js";
import { EMPTY_LINE, withText } from "../model/pending-line.js";
import { promptRedrawn } from "../waits/ready.js";
import { throwIfEnding, waitShellStarted } from "../typing/command-run.js";
import { inInputTurn } from "../typing/input-turn.js";
import { pressKeysIntoSession, submission, typeIntoSession, typeLiteral } from "../typing/typing.js";
import type { CallContext, SendInput, SendResult } from "./inputs.js";
import type { Terminal } from "./terminal.js";

/** Every key name resolved before anything is typed, so a bad key name sends nothing. */
function keyNamesOf(keys: readonly string[]): string[] {
  try {
    return keys.map((key) => resolveKey(key).name);
  } catch (error) {
    throw new ToolError((error as Error).message);
  }
}

export async function terminalSend(terminal: Terminal, input: SendInput, _ctx: CallContext): Promise<SendResult> {
  const { policy, backend, config } = terminal;
  const session = await terminal.session(input.session);
  await throwIfEnding(session);
  if (input.text === undefined && input.keys === undefined && input.secret === undefined) {
    throw new ToolError("nothing to send: give text, keys or secret");
  }
  const enter = input.enter ?? true;
  const keys = input.keys ?? [];
  const keyNames = keyNamesOf(keys);
  // Nothing is typed into a shell still starting (its rc files would read it, or it would be lost).
  if (session.meta.shell !== "other" && session.phase === "starting") await waitShellStarted(session, config);
  // Each text made literal once, here: what the gate judges is what is typed.
  const literal = input.text === undefined ? undefined : literalText(input.text);
  const secret = input.secret === undefined ? undefined : literalText(input.secret).text;
  // A trailing newline submits the text even with enter: false, so the gate sees it then too.
  const submitted = literal === undefined ? undefined : submission(literal.text, enter && secret === undefined);
  // Judged and typed in the session's input turn: no run or message types into the middle of this text.
  return inInputTurn(session, async () => {
    let line = await policy.pending(session);
    if (literal !== undefined) {
      policy.checkSize(literal.text);
      if (submitted!.enter || literal.text.includes("\n")) await policy.judgeLine(session, line, literal.text, input.confirm);
      line = submitted!.enter ? EMPTY_LINE : withText(line, literal.text);
    }
    if (secret !== undefined && !input.confirm) await policy.judgeLine(session, line, secret, false);
    // The keys' submits that the typed text alone can judge are judged before anything is sent.
    const plan = planKeys(line, keyNames);
    if (!input.confirm) for (const step of plan.steps) if (step.submits && !step.line.edited) await policy.judgeLine(session, step.line, EMPTY_TEXT, false);
    // Said in the result: a pager or a full-screen program reads what is typed as its own keys.
    const takenBy = await keysTakenBy(session);
    let sent = 0;
    if (literal !== undefined) {
      if (!takenBy && session.integrated && (submitted!.enter || literal.text.includes("\n"))) await markLine(backend, config.home, session, "run");
      sent += await typeIntoSession(session, literal.text, enter && secret === undefined);
      await policy.setPending(session, line);
    }
    if (secret !== undefined) {
      for (const value of [input.secret!, secret]) session.addSecret(value); // and as typed: controls as pictures
      // Right after a command ended the shell may still be drawing its prompt: the mark must
      // be there before the shell's hooks read the line, so the prompt is waited for first.
      await promptRedrawn(session);
      if (session.integrated && session.phase === "prompt") await markLine(backend, config.home, session, "secret");
      sent += await typeLiteral(session, secret, true);
      line = EMPTY_LINE;
      await policy.setPending(session, line);
    }
    if (keys.length) await pressKeysIntoSession(session, keyNames, () => policy.sendKeys(session, keys, plan, input.confirm === true));
    policy.recordInput(session, input.text, enter, {
      keys: keys.length ? keys : undefined,
      secret: input.secret === undefined ? undefined : `[secret, ${Buffer.byteLength(input.secret)} bytes]`,
    });
    return { sent_bytes: sent, ...(keys.length ? { keys: keys.length, key_names: [...keys] } : {}), ...(literal?.replaced ? { replaced: literal.replaced } : {}), ...(takenBy ? { taken_by: takenBy, note: takenByNote(takenBy) } : {}) };
  });
}
