// The pane listing against a real tmux: a folder or program name holding a tab, a newline, a CR
// or a backslash is that pane's field, exact, and costs no other pane its line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PANE_FORMAT_ARG, parsePaneLine, parsePaneLines } from "../../../src/backends/tmux/pane-format.js";

/** The lines of one command's reply, the command sent as a control-mode client sends it. */
function controlReply(socket: string, command: string): string[] {
  const run = spawnSync("tmux", ["-u", "-S", socket, "-f", "/dev/null", "-C", "attach", "-t", "t"], { input: `${command}\n`, encoding: "utf8" });
  const lines = run.stdout.split("\n");
  const begins = lines.flatMap((l, i) => (/^%begin \d+ \d+ 1$/.test(l) ? [i] : []));
  const start = begins.at(-1)!;
  const end = lines.findIndex((l, i) => i > start && /^%(end|error) /.test(l));
  assert.match(lines[end]!, /^%end /, lines.slice(start, end + 1).join("\n"));
  return lines.slice(start + 1, end);
}

test("odd folder names in a real tmux listing stay in their own pane's cwd, exact", () => {
  const dir = mkdtempSync(join(tmpdir(), "th-pf-"));
  const socket = join(dir, "s");
  const odd = [join(dir, "a\nb"), join(dir, "t\tab"), join(dir, "back\\n\\slash\r"), join(dir, "x\n%end 1 2 1\n\t\t"), join(dir, "\u001b]0;x\u0007")];
  try {
    for (const folder of odd) mkdirSync(folder);
    assert.equal(spawnSync("tmux", ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-c", dir, "sleep 60"]).status, 0);
    for (const folder of odd) assert.equal(spawnSync("tmux", ["-S", socket, "new-window", "-d", "-t", "t:", "-c", folder, "sleep 60"]).status, 0);
    spawnSync("tmux", ["-S", socket, "set", "-p", "-t", "t:0", "@termhive_meta", "eyJuYW1lIjoiYSJ9"]);
    const lines = controlReply(socket, `list-panes -s -t t: -F ${PANE_FORMAT_ARG}`);
    assert.equal(lines.length, odd.length + 1, lines.join("\n"));
    const panes = lines.map(parsePaneLine);
    assert.deepEqual(panes.map((p) => p.cwd), [dir, ...odd]);
    assert.deepEqual(new Set(panes.map((p) => p.foreground)), new Set(["sleep"]));
    assert.deepEqual(panes[0]!.meta, { name: "a" });
    const one = controlReply(socket, `display-message -p -t t:1 ${PANE_FORMAT_ARG}`);
    assert.deepEqual(parsePaneLines(one).map((p) => p.cwd), [odd[0]]);
  } finally {
    spawnSync("tmux", ["-S", socket, "kill-server"]);
    rmSync(dir, { recursive: true, force: true });
  }
});

const line = (id: number, command: string, cwd: string, meta = "eyJuYW1lIjoiYSJ9") => `%${id}\t@${id}\t${100 + id}\t0\t\t\t${command}\t${cwd}\t24\t80\t${meta}`;

test("a raw newline in an unescaped listing is that pane's, its meta kept; the others read", () => {
  const lines = [line(1, "bash", "/ok"), ...line(2, "bash", "/tmp/a\nb").split("\n"), line(3, "vim", "/ok3")];
  const panes = parsePaneLines(lines);
  assert.deepEqual(panes.map((p) => [p.paneId, p.cwd, p.meta.name]), [["%1", "/ok", "a"], ["%2", "/tmp/a\nb", "a"], ["%3", "/ok3", "a"]]);
});

test("a raw tab in an unescaped listing keeps the pane listed, its program and folder unknown", () => {
  const panes = parsePaneLines([line(1, "bash", "/t\tab"), line(2, "bash", "/ok")]);
  assert.deepEqual(panes.map((p) => [p.paneId, p.foreground, p.cwd, p.rows, p.meta.name]), [["%1", "", "", 24, "a"], ["%2", "bash", "/ok", 24, "a"]]);
});

test("a listing with no readable line at all is tmux speaking another format, said loudly", () => {
  assert.throws(() => parsePaneLines(["%1_@1_100_0___bash_/x_24_80_"]), /1 of 11 tab-separated fields.*TERMHIVE_TMUX/);
});
