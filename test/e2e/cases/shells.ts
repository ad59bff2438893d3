// Exact completion and exit codes in bash, zsh and fish, through the MCP client — shared by
// the default-backend suite (shells.test.ts) and the pty-backend suite (pty-backend.test.ts).
import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "../harness.js";
import { testFor } from "./known-gaps.js";

/** Server environment selecting `backend`; empty = whatever the harness/server default is. */
/** Extra server environment a backend needs (the simulated iTerm2's socket and credentials). */
export const backendExtraEnv: Record<string, Record<string, string>> = {};

export function backendEnv(backend?: string): Record<string, string> {
  return backend ? { TERMHIVE_BACKEND: backend, ...backendExtraEnv[backend] } : {};
}

export function backendLabel(backend?: string): string {
  return backend ? ` [${backend}]` : "";
}

export function shellCases(backend?: string): void {
  const test = testFor(backend);
  for (const shell of ["bash", "zsh", "fish"]) {
    describe(`${shell}${backendLabel(backend)}: exit codes and completion`, () => {
      let h: Harness;
      const s = `${shell}-e2e`;
      before(async () => {
        h = await Harness.start(backendEnv(backend));
        const opened = await h.ok("terminal_open", { name: s, command: shell });
        assert.equal(opened.shell, shell);
        if (backend) assert.equal(opened.backend, backend);
      });
      after(async () => h.destroy());

      const cases: [string, number, string?][] = [
        ["false", 1],
        ["true", 0],
        [shell === "fish" ? "sh -c 'exit 3'" : "(exit 3)", 3],
        ["true | false", 1],
        [shell === "fish" ? "echo hello-(math 6 \\* 7)" : "echo hello-$((6*7))", 0, "hello-42"],
      ];
      for (const [command, code, output] of cases) {
        test(`${command} → exit ${code}`, async () => {
          const r = await h.ok("terminal_run", { session: s, command });
          assert.equal(r.reason, "osc133");
          assert.equal(r.complete, true);
          assert.equal(r.exit_code, code);
          if (output !== undefined) assert.equal(r.output, output);
          else assert.equal(r.output, "");
        });
      }

      test("Ctrl-C of sleep 100 → 130, and the timeout leaves it running", async () => {
        const r = await h.ok("terminal_run", { session: s, command: "sleep 100", timeout_s: 0.5 });
        assert.equal(r.complete, false);
        assert.equal(r.reason, "timeout");
        assert.equal(r.running, true);
        const busy = await h.call("terminal_run", { session: s, command: "echo no" });
        assert.equal(busy.isError, true);
        assert.match(busy.text, /busy.*sleep 100/);
        await h.ok("terminal_send", { session: s, keys: ["C-c"] });
        const w = await h.ok("terminal_wait", { session: s, for: "completion", timeout_s: 10 });
        assert.equal(w.matched, true);
        assert.equal(w.exit_code, 130);
      });

      test("multi-line command runs once and reports its exit", async () => {
        const r = await h.ok("terminal_run", { session: s, command: "echo one\necho two" });
        assert.equal(r.complete, true);
        assert.match(r.output, /one/);
        assert.match(r.output, /two/);
      });

      test("a line the shell rejects completes at once, nothing runs", async () => {
        const r = await h.ok("terminal_run", { session: s, command: "echo )" });
        assert.equal(r.complete, true);
        assert.ok(["rejected", "osc133"].includes(r.reason), r.reason);
        assert.notEqual(r.exit_code, 0);
        const after = await h.ok("terminal_run", { session: s, command: "echo still-fine" });
        assert.equal(after.output, "still-fine");
      });

      test("clear does not break completion", async () => {
        await h.ok("terminal_run", { session: s, command: "clear" });
        const r = await h.ok("terminal_run", { session: s, command: "echo after-clear" });
        assert.equal(r.output, "after-clear");
        assert.equal(r.exit_code, 0);
      });

      test("cwd follows cd (OSC 7)", async () => {
        await h.ok("terminal_run", { session: s, command: "cd /tmp" });
        // fish reports its cwd from its prompt hook, i.e. after the command-end marker that
        // completes the run; let the prompt arrive before asking (the pty backend delivers
        // output in smaller chunks than tmux, which made this race visible).
        await h.ok("terminal_wait", { session: s, for: "idle", idle_ms: 150, timeout_s: 5 });
        const list = await h.ok("terminal_list");
        const me = list.sessions.find((x: { name: string }) => x.name === s);
        assert.equal(me.cwd, "/tmp");
        assert.equal(me.last_exit_code, 0);
      });
    });
  }
}
