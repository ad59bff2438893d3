// The CLI door rewrites the service's MCP-speak (tool calls with JSON arguments, confirm: true)
// into commands a person types; program output is left alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cliSpeak, cliSpeakResult } from "../../../src/cli/speak.js";

test("tool calls with JSON arguments become termhive commands", () => {
  assert.equal(
    cliSpeak(`Wait more with terminal_wait {"session":"dev","for":"completion"}, read with terminal_read {"session":"dev"}, or interrupt with terminal_send {"session":"dev","keys":["C-c"]}.`),
    "Wait more with termhive wait dev, read with termhive read dev, or interrupt with termhive send dev -k C-c.",
  );
  assert.equal(cliSpeak(`terminal_wait {"session":"a b","for":"idle","timeout_s":5}`), "termhive wait 'a b' --for idle -t 5");
  assert.equal(cliSpeak(`terminal_read {"session":"s","mode":"lines","from_line":17,"to_line":2991}`), "termhive read s -m lines --from 17 --to 2991");
});

test("bare tool names, the keys shorthand, confirm and force", () => {
  assert.equal(cliSpeak("no sessions are open — use terminal_open"), "no sessions are open — use termhive open");
  assert.equal(cliSpeak(`pass force: true to kill it, or interrupt it first with terminal_send keys ["C-c"]`, "web"), "pass --force to kill it, or interrupt it first with termhive send web -k C-c");
  assert.equal(cliSpeak("If you mean it, resend with confirm: true."), "If you mean it, resend with --confirm.");
  assert.equal(cliSpeak("close some with terminal_close: a (idle 3 s)"), "close some with termhive close <session>: a (idle 3 s)");
  assert.equal(cliSpeak("see terminal_list"), "see termhive ls");
  // Not a termhive tool: left as is.
  assert.equal(cliSpeak("terminal_bogus {\"x\":1}"), "terminal_bogus {\"x\":1}");
});

test("in results only hints, notes and termhive's own fold markers are rewritten", () => {
  const r = cliSpeakResult(
    {
      output: `printed terminal_read {"session":"x"} itself\n… 5 lines hidden: terminal_read {"session":"x","mode":"lines","from_line":2,"to_line":6}`,
      hint: `terminal_wait {"session":"x","for":"completion"}`,
      exit_code: 0,
    },
    "x",
  );
  assert.equal(r.output, `printed terminal_read {"session":"x"} itself\n… 5 lines hidden: termhive read x -m lines --from 2 --to 6`);
  assert.equal(r.hint, "termhive wait x");
  assert.equal(r.exit_code, 0);
});
