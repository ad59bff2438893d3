// Issue 21 §5: each pane's border shows its own agent's status. tmux 3.3 keeps the border
// styles per window, so a per-pane colour written last used to colour every border; here three
// agents in three states are read together from what an attached person's terminal received
// (`script` records the tty of a real `tmux attach`).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { until as waitUntil } from "../until.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000) => waitUntil(what, probe, timeoutMs, 50);

/** SGR foreground codes tmux writes for the colours termhive uses. */
const SGR_FG: Record<string, string> = { red: "31", green: "32", yellow: "33" };

/**
 * The foreground colour in force where `label` was last drawn on the recorded terminal,
 * following the SGR sequences of the 200 bytes before it ("reset" after a reset).
 */
function colourBefore(tty: string, label: string): string | undefined {
  const at = tty.lastIndexOf(label);
  if (at === -1) return undefined;
  let fg: string | undefined;
  for (const sgr of tty.slice(Math.max(0, at - 200), at).matchAll(/\x1b\[([0-9;]*)m/g)) {
    for (const p of (sgr[1] || "0").split(";")) {
      if (p === "0" || p === "") fg = "reset";
      else if (/^3[0-7]$/.test(p)) fg = p;
    }
  }
  return fg;
}

describe("hive borders (issue 21 §5)", () => {
  let h: Harness;
  let attached: ChildProcess | undefined;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => {
    attached?.kill("SIGKILL");
    await h.destroy();
  });

  test("three agents in three states: each border is drawn in its own status colour, read together", async () => {
    const names = ["erring", "resting", "busy"] as const;
    const layout = await h.ok("hive_layout", {
      layout: "tiled",
      panes: names.map((name) => ({ name, agent: name })),
    });
    const pane = Object.fromEntries(layout.panes.map((p: { agent: string; pane: string }) => [p.agent, p.pane])) as Record<(typeof names)[number], string>;
    // Each status set by its own short-lived process, as agents report themselves.
    await h.callOnce("hive_status", { agent: "erring", status: "error", detail: "API Error" });
    await h.callOnce("hive_status", { agent: "resting", status: "idle" });
    await h.callOnce("hive_status", { agent: "busy", status: "working" });
    const expanded = (p: string, option: string) => h.tmux("display", "-p", "-t", p, `#{E:${option}}`).stdout.trim();
    const want = { erring: "red", resting: "green", busy: "yellow" } as const;
    // The style tmux applies when it draws each pane's border, expanded for that pane.
    await until(`each pane's border style its own (${names.map((n) => expanded(pane[n], "pane-border-style")).join(", ")})`, () =>
      names.every((n) => expanded(pane[n], "pane-border-style") === `fg=${want[n]}`) ? true : undefined);
    for (const n of names) assert.equal(expanded(pane[n], "pane-active-border-style"), `fg=${want[n]},bold`);

    // What a person attached through a real terminal sees: each pane's top border (its title
    // names the agent and its status) and its line are drawn in its own colour, all on one screen.
    const ttyFile = join(h.home, "attached.tty");
    attached = spawn("script", ["-qfc", `stty rows 40 cols 160; exec tmux -S '${join(h.home, "tmux.sock")}' attach -t '${pane.erring}'`, ttyFile], {
      env: { ...process.env, TERM: "xterm-256color" },
      stdio: ["pipe", "ignore", "ignore"],
    });
    const titles = { erring: "erring · error", resting: "resting · idle", busy: "busy · working" } as const;
    const seen = await until("all three borders drawn", () => {
      const tty = existsSync(ttyFile) ? readFileSync(ttyFile, "utf8") : "";
      return names.every((n) => tty.includes(titles[n])) ? tty : undefined;
    });
    for (const n of names) {
      assert.equal(colourBefore(seen, titles[n]), SGR_FG[want[n]], `${n}'s title is drawn ${want[n]}`);
      // The border line after the title, not only the title: no colour change before its ─.
      const at = seen.lastIndexOf(titles[n]);
      const rest = seen.slice(at, at + 120);
      const line = rest.indexOf("─");
      assert.ok(line > 0, `${n}'s border line follows its title`);
      assert.equal(colourBefore(seen.slice(0, at + line), seen.slice(at, at + line)), SGR_FG[want[n]], `${n}'s border line is ${want[n]}`);
    }
  });
});
