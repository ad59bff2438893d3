// Issue 32's figures (`npm run bench hive-real` runs it after the turns): the real Claude Code
// (manual permission mode) and Codex CLI (on-request approvals), offline against the test
// stand-ins, asked to run a command: from the dialog's text first on screen (a reader polling
// terminal_read every 20 ms) to `hive_wait {for: waiting_for_input}` returning, and from
// hive_answer's call to the dialog gone from the screen; and how many of the keys sent at once
// on the announcement were lost (the command did not run).
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadavg, median, round, type Emit, type Server } from "./common.js";

const TURNS = Number(process.env.BENCH_DIALOG_TURNS ?? 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When `test` first holds for the agent's screen (polled every 20 ms), or null after `timeoutMs`. */
async function screenTime(s: Server, agent: string, test: (screen: string) => boolean, timeoutMs = 30_000): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const screen = String((await s.call("terminal_read", { session: agent, mode: "screen" })).output ?? "");
    if (test(screen)) return Date.now();
    await sleep(20);
  }
  return null;
}

export async function dialogTurns(emit: Emit, s: Server, agent: string, project: string, dialog: RegExp): Promise<void> {
  const toWaiting: number[] = [];
  const toGone: number[] = [];
  let lost = 0;
  for (let i = 0; i < TURNS; i++) {
    await s.call("hive_wait", { targets: agent, for: "idle", timeout_s: 60 });
    const made = join(project, `bench-${agent}-${i}`);
    await s.call("hive_message", { agents: { [agent]: `please run: touch ${made}` } });
    const drawn = screenTime(s, agent, (t) => dialog.test(t));
    await s.call("hive_wait", { targets: agent, for: "waiting_for_input", timeout_s: 60 });
    const announced = Date.now();
    const drawnAt = await drawn;
    if (drawnAt !== null) toWaiting.push(announced - drawnAt);
    // Every other turn: the natural key at once; else hive_answer, timed to the dialog's end.
    if (i % 2 === 0) {
      await s.call("terminal_send", { session: agent, keys: ["Enter"] });
      const ran = await screenTime(s, agent, () => existsSync(made), 20_000);
      if (ran === null) {
        lost++;
        await s.call("hive_answer", { agent, answer: "1" });
      }
    } else {
      const sent = Date.now();
      const gone = screenTime(s, agent, (t) => !dialog.test(t), 20_000);
      await s.call("hive_answer", { agent, answer: "1" });
      const goneAt = await gone;
      if (goneAt !== null) toGone.push(goneAt - sent);
    }
  }
  emit({
    bench: `hive-real ${agent}: dialog drawn → waiting_for_input, answer → dialog gone`, unit: "ms", turns: TURNS,
    drawn_to_waiting_median: round(median(toWaiting)), answer_to_gone_median: toGone.length ? round(median(toGone)) : null,
    keys_lost: lost, keys_sent: Math.ceil(TURNS / 2), loadavg: loadavg(),
    method: "the dialog's text first seen by a 20 ms terminal_read poll → hive_wait {for: waiting_for_input} returns; hive_answer called → the poll sees the dialog gone; Enter sent at once on the announcement: lost when the command's file is not made in 20 s",
  });
}

export function dialogProject(home: string): string {
  const dir = join(home, "dialog-proj");
  mkdirSync(dir, { recursive: true });
  return dir;
}
