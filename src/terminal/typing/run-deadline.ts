// terminal_run's timeout_s bounds the whole call, typing included. Before the command's keys
// are all sent, every step goes through the pane's host: on a remote host whose link froze
// (the TCP link up, sshd not answering) the run lock, the pending-line check, the pager mark
// and the keys themselves waited until ssh gave the link up (~30 s) whatever timeout_s said.
// The deadline answers at timeout_s with what is known of the keys; the steps left behind go
// on, and are not given a first key once the deadline has answered.
import type { RunResult } from "./command-run.js";

/** Where a run's typing stands: what its answer at the deadline can say. */
export class RunTyping {
  /** "waiting": no key sent yet; "typing": keys on their way, not all confirmed sent; "typed": all sent, the run waits for its end (its own timeout answers). */
  stage: "waiting" | "typing" | "typed" = "waiting";
  /** The deadline answered: the run must not send a first key any more. */
  abandoned = false;

  private readonly whenTyped: (() => void)[] = [];

  /** Every key of the command was sent: the run waits for its end from now on. */
  typed(): void {
    this.stage = "typed";
    for (const f of this.whenTyped.splice(0)) f();
  }

  /** `f` once the command's keys are all sent. */
  onTyped(f: () => void): void {
    if (this.stage === "typed") f();
    else this.whenTyped.push(f);
  }

  /** Called before the run sends its first key: refuses once the deadline has answered. */
  startTyping(): void {
    if (this.abandoned) throw new Error("the run's timeout came before its first key was sent");
    this.stage = "typing";
  }
}

/**
 * `work`'s result, or at `timeoutMs` (from `started`) a timeout result saying what reached the
 * host, unless the command is typed by then (its completion wait ends at the timeout itself).
 */
export function withinRunTimeout(work: Promise<RunResult>, typing: RunTyping, started: number, timeoutMs: number, host: string | undefined): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    const check = () => {
      if (typing.stage === "typed") return; // its own timeout answers
      typing.abandoned = true;
      // What was left behind ends on its own (ssh gives the link up); nobody waits for its answer.
      work.catch(() => {});
      resolve(timedOutWhileTyping(typing.stage, Date.now() - started, host));
    };
    const timer = setTimeout(check, Math.max(0, started + timeoutMs - Date.now()));
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

function timedOutWhileTyping(stage: RunTyping["stage"], ms: number, host: string | undefined): RunResult {
  const where = host ? `host ${host}` : "the session's terminal";
  const hint =
    stage === "waiting"
      ? `timeout_s ran out before the command was typed: ${where} did not answer (a frozen link?). Nothing was typed, and nothing will be: run it again once terminal_list shows the session.`
      : `timeout_s ran out while the command was being typed: ${where} did not confirm the keys (a frozen link?). Whether they reached it is not known; if they did, the command runs once the link answers again — terminal_read shows it.`;
  return { output: "", exit_code: null, complete: false, reason: "timeout", running: false, duration_ms: ms, tokens: 0, raw_tokens: 0, folded_lines: 0, hint };
}
