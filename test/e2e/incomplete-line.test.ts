// Issue 21 §1: a command the shell cannot finish (an open quote or block, a trailing backslash)
// returns at once with reason "incomplete", the unfinished line cancelled so the next run is
// typed on a clean prompt; and text left at the prompt is cleared before a run types (it was
// glued onto the command). bash, zsh and fish, in emacs and vi modes; run as a client runs
// termhive (bare env, another folder), each call from a fresh server process where a person's
// pane and a later client meet.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { until } from "../until.js";
import { Harness } from "./harness.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
/** Lines each shell cannot run yet. (`for … do` without `done` is an open block in bash and zsh; fish has `for … end`.) */
const INCOMPLETE: Record<(typeof SHELLS)[number], string[]> = {
  bash: ['echo "unclosed', "for i in 1 2; do echo $i", "echo trailing \\"],
  zsh: ['echo "unclosed', "for i in 1 2; do echo $i", "echo trailing \\"],
  fish: ['echo "unclosed', "for i in 1 2; echo $i", "echo trailing \\"],
};
/** How each shell is put in vi mode. */
const VI_MODE = { bash: "set -o vi", zsh: "bindkey -v", fish: "fish_vi_key_bindings" };

describe("incomplete lines and text left at the prompt", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  for (const shell of SHELLS) {
    test(`${shell}: an incomplete command returns at once as "incomplete", and the next run gets a clean prompt`, async () => {
      await h.ok("terminal_open", { name: `inc-${shell}`, command: shell });
      for (const command of INCOMPLETE[shell]) {
        // Before this change the run waited out its 10 s and said "timeout"; now it returns at once.
        const r = await h.ok("terminal_run", { session: `inc-${shell}`, command, timeout_s: 10 });
        assert.equal(r.reason, "incomplete", `${command}: ${JSON.stringify(r)}`);
        assert.equal(r.complete, true);
        assert.equal(r.running, false);
        assert.equal(r.exit_code, null);
        assert.match(String(r.hint), /cancel/i, JSON.stringify(r));
        const next = await h.ok("terminal_run", { session: `inc-${shell}`, command: "echo clean-$((6*7))".replace("$((6*7))", shell === "fish" ? "(math 6 \\* 7)" : "$((6*7))"), timeout_s: 20 });
        assert.deepEqual([next.reason, next.output, next.exit_code], ["osc133", "clean-42", 0], `after ${command}: ${JSON.stringify(next)}`);
      }
      // A complete multi-line command is not taken for an incomplete one.
      const block = shell === "fish" ? "for i in 1 2\necho n$i\nend" : "for i in 1 2\ndo\necho n$i\ndone";
      const r = await h.ok("terminal_run", { session: `inc-${shell}`, command: block, timeout_s: 20 });
      assert.deepEqual([r.reason, r.output, r.exit_code], ["osc133", "n1\nn2", 0], JSON.stringify(r));
    });

    for (const vi of [false, true]) {
      // bash in vi command mode: a Ctrl-C sent under half a second after the person's Escape was
      // lost by readline (2 runs in ~6 under load: "stray" ran as "tray"); cancelInputLine tries twice.
      test(`${shell}${vi ? " (vi mode, left in command mode)" : ""}: text a person left at the prompt is cleared before a run types`, async () => {
        const name = `left-${shell}${vi ? "-vi" : ""}`;
        await h.ok("terminal_open", { name, command: shell });
        if (vi) await h.ok("terminal_run", { session: name, command: VI_MODE[shell] });
        // A person types at the prompt (from another client: a fresh process), and leaves it there.
        await h.callOnce("terminal_send", { session: name, text: "stray words", enter: false });
        // The echo is on screen (a pattern sees only what programs print, not the echo of input).
        await until("the typed words on screen", async () => ((await h.ok("terminal_read", { session: name, mode: "screen" })).output.includes("stray words") ? true : undefined), 10_000);
        if (vi) await h.callOnce("terminal_send", { session: name, keys: ["Escape"] });
        const r = await h.callOnce("terminal_run", { session: name, command: "echo typed-$((40+2))".replace("$((40+2))", shell === "fish" ? "(math 40 + 2)" : "$((40+2))"), timeout_s: 20 });
        assert.deepEqual([r.data.reason, r.data.output, r.data.exit_code], ["osc133", "typed-42", 0], r.text);
      });
    }
  }

  test("a REPL at its prompt is typed into as before (no Ctrl-C into python)", async () => {
    await h.ok("terminal_open", { name: "repl", command: "bash" });
    await h.ok("terminal_send", { session: "repl", text: "python3 -q" });
    await h.ok("terminal_wait", { session: "repl", pattern: ">>> $", timeout_s: 20 });
    const r = await h.ok("terminal_run", { session: "repl", command: "print(6*7)", timeout_s: 20 });
    assert.deepEqual([r.reason, r.output], ["nested-prompt", "42"], JSON.stringify(r));
    const incomplete = await h.ok("terminal_run", { session: "repl", command: "1 +", timeout_s: 20 });
    assert.notEqual(incomplete.reason, "incomplete", JSON.stringify(incomplete));
  });
});
