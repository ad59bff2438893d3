// The same cases run against real bash, zsh and fish (each skipped if not installed):
// markers, exit codes, multi-line input, Ctrl-C, clear, cwd, the user's rc, exec.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { SHELLS, ShellSession, shellPath, kindOf, type Shell } from "./helpers.js";

// TERMHIVE_TEST_SHELLS=bash,zsh narrows the run while working on one shell.
const only = process.env.TERMHIVE_TEST_SHELLS?.split(",");

/** Where the three shells' syntax differs, the same case uses each shell's spelling. */
const syntax: Record<Shell, { exit3: string; forLoop: string; continuation: string; heredoc?: string; rcFile: string; rc: string }> = {
  bash: {
    exit3: "(exit 3)",
    forLoop: "for i in 1 2\rdo echo item$i\rdone",
    continuation: "echo cont \\\rinued",
    heredoc: "cat <<EOF\rhere1\rhere2\rEOF",
    rcFile: ".bashrc",
    rc: "export TH_MARKER=from-bashrc\nalias thalias='echo alias-ok'\n",
  },
  zsh: {
    exit3: "(exit 3)",
    forLoop: "for i in 1 2\rdo echo item$i\rdone",
    continuation: "echo cont \\\rinued",
    heredoc: "cat <<EOF\rhere1\rhere2\rEOF",
    rcFile: ".zshrc",
    rc: "export TH_MARKER=from-zshrc\nalias thalias='echo alias-ok'\n",
  },
  fish: {
    exit3: "sh -c 'exit 3'",
    forLoop: "for i in 1 2\recho item$i\rend",
    continuation: "echo cont \\\rinued",
    rcFile: ".config/fish/config.fish",
    rc: "set -gx TH_MARKER from-fishconfig\nalias thalias='echo alias-ok'\n",
  },
};

for (const kind of SHELLS) {
  const skip = !shellPath(kind) ? `${kind} not installed` : only && !only.includes(kind) ? "filtered out" : false;
  const sx = syntax[kind];

  describe(`shell integration: ${kind}`, { skip }, () => {
    let sh: ShellSession;
    before(async () => {
      sh = await ShellSession.start(kind, { files: { [sx.rcFile]: sx.rc } });
    });
    after(async () => {
      await sh?.close();
    });

    it("first prompt has A, B and OSC 7, and no D", () => {
      const kinds = sh.events.map(kindOf);
      assert.ok(kinds.includes("A"), kinds.join(" "));
      assert.ok(kinds.includes("7"), kinds.join(" "));
      assert.ok(!kinds.includes("D"), kinds.join(" "));
      assert.ok(kinds.indexOf("A") < kinds.lastIndexOf("B"));
    });

    it("the user's rc is sourced (variable and alias)", async () => {
      const r = await sh.run("echo marker=$TH_MARKER; thalias");
      assert.match(r.output, /marker=from-/);
      assert.match(r.output, /alias-ok/);
    });

    for (const [cmd, code] of [
      ["true", 0],
      ["false", 1],
      ["true | false", 1],
      ["false | true", 0],
    ] as const) {
      it(`${cmd} → one C, one D;${code}`, async () => {
        const r = await sh.run(cmd);
        assert.equal(r.count("C"), 1, r.kinds().join(" "));
        assert.equal(r.count("D"), 1, r.kinds().join(" "));
        assert.equal(r.exit, code);
        // Order within one command: E (cmdline) → C → D → A → B; bash sends E just before D
        // (from PROMPT_COMMAND, without the fork PS0 would need).
        const k = r.kinds().filter((x) => "ECDAB".includes(x));
        assert.deepEqual(k, kind === "bash" ? ["C", "E", "D", "A", "B"] : ["E", "C", "D", "A", "B"]);
        assert.equal(r.cmdline, cmd);
      });
    }

    it(`${sx.exit3} → D;3`, async () => {
      const r = await sh.run(sx.exit3);
      assert.equal(r.exit, 3);
      assert.equal(r.count("D"), 1);
    });

    it("command output sits between C and D", async () => {
      const r = await sh.run("echo hello-$((20+22))".replace("$((20+22))", kind === "fish" ? "(math 20+22)" : "$((20+22))"));
      assert.match(r.output, /hello-42/);
      assert.doesNotMatch(r.output, /echo/); // the echoed command line is before C
    });

    it("OSC 633;E escapes ; \\ and control characters", async () => {
      const cmd = kind === "fish" ? "echo 'a;b\\\\c'" : "echo 'a;b\\c'";
      const r = await sh.run(cmd);
      assert.equal(r.cmdline, cmd);
      const e = r.events.find((x) => x.code === "633")!;
      assert.ok(!e.data.slice(2).includes(";"), e.data);
    });

    it("multi-line for loop → exactly one C and one D", async () => {
      const r = await sh.run(sx.forLoop);
      assert.equal(r.count("C"), 1, r.kinds().join(" "));
      assert.equal(r.count("D"), 1);
      assert.equal(r.exit, 0);
      assert.match(r.output, /item1[\s\S]*item2/);
      assert.match(r.cmdline ?? "", /^for i in 1 2[\s\S]*item\$i[\s\S]*(done|end)$/);
    });

    it("backslash continuation → exactly one C and one D", async () => {
      const r = await sh.run(sx.continuation);
      assert.equal(r.count("C"), 1, r.kinds().join(" "));
      assert.equal(r.count("D"), 1);
      assert.match(r.output, /cont inued/);
    });

    if (sx.heredoc) {
      it("heredoc → exactly one C and one D", async () => {
        const r = await sh.run(sx.heredoc!);
        assert.equal(r.count("C"), 1, r.kinds().join(" "));
        assert.equal(r.count("D"), 1);
        assert.match(r.output, /here1\r?\nhere2/);
      });
    }

    it("Ctrl-C of sleep 100 → D;130", async () => {
      const from = sh.mark();
      sh.write("sleep 100\r");
      await sh.waitFor((e) => kindOf(e) === "C", from, 10000, "C of sleep");
      await sh.waitForeground("sleep");
      sh.write("\x03");
      const d = await sh.waitFor((e) => kindOf(e) === "D", from, 10000, "D after Ctrl-C");
      assert.equal(sh.events[d]!.data, "D;130");
      await sh.waitFor((e) => kindOf(e) === "B", d, 10000, "prompt after Ctrl-C");
    });

    // bash and zsh answer Ctrl-C at the prompt with a fresh prompt (A/B). fish 3.x just
    // clears the line and prints nothing, so for fish there is no prompt to wait for:
    // it reads keys in order, so the next command typed is still read after the Ctrl-C.
    const ctrlCAtPrompt = async (keys: string): Promise<string[]> => {
      const from = sh.mark();
      if (kind === "fish") sh.write(keys);
      else {
        await sh.editorReading();
        await sh.toPrompt(keys);
      }
      const r = await sh.run("true");
      assert.equal(r.exit, 0);
      return sh.events.slice(from).map(kindOf);
    };

    it("Ctrl-C at an empty prompt → no C/D (no stale status)", async () => {
      await sh.run("false"); // a stale status of 1 that must not be reported again
      const k = await ctrlCAtPrompt("\x03");
      // Only `true`'s own C and D.
      assert.equal(k.filter((x) => x === "C").length, 1, k.join(" "));
      assert.equal(k.filter((x) => x === "D").length, 1, k.join(" "));
    });

    it("Ctrl-C with text typed at the prompt → no C/D", async () => {
      // Wait for the echo of the typed text: the line editor is then reading, so the
      // Ctrl-C cancels the line (sent earlier, it can land while the shell is still
      // drawing its prompt).
      const textFrom = sh.parser.text.length;
      sh.write("echo never-run");
      await sh.waitText("never-run", textFrom);
      const k = await ctrlCAtPrompt("\x03");
      assert.doesNotMatch(sh.parser.text.slice(textFrom), /\r\nnever-run/);
      assert.equal(k.filter((x) => x === "C").length, 1, k.join(" "));
      assert.equal(k.filter((x) => x === "D").length, 1, k.join(" "));
    });

    it("empty Enter → no C/D", async () => {
      await sh.run("false");
      const evs = await sh.toPrompt("\r");
      const k = evs.map(kindOf);
      assert.ok(!k.includes("C") && !k.includes("D"), k.join(" "));
    });

    it("clear → C, D;0, then a normal prompt and later commands still work", async () => {
      const r = await sh.run("clear");
      assert.equal(r.exit, 0);
      assert.equal(r.count("C"), 1);
      const r2 = await sh.run("false");
      assert.equal(r2.exit, 1);
    });

    it("cd /tmp → OSC 7 reports /tmp", async () => {
      const r = await sh.run("cd /tmp");
      assert.equal(r.cwd, "/tmp");
      const e = r.events.filter((x) => x.code === "7").pop()!;
      assert.match(e.data, /^file:\/\/[^/]*\/tmp$/);
    });

    it("the folder a command left the shell in is reported before its D", async () => {
      await sh.run("cd /");
      const r = await sh.run("cd /tmp");
      const d = r.events.findIndex((x) => x.code === "133" && x.data.startsWith("D"));
      const cwd = r.events.findIndex((x) => x.code === "7" && /\/tmp$/.test(x.data));
      assert.ok(d >= 0 && cwd >= 0 && cwd < d, r.events.map((x) => `${x.code};${x.data}`).join(" "));
      await sh.run("cd /");
    });

    it("a directory with a space and non-ASCII is percent-encoded in OSC 7", async () => {
      const dir = `${sh.home}/a b/é;x`;
      await sh.run(`mkdir -p '${dir}'`);
      const r = await sh.run(`cd '${dir}'`);
      const e = r.events.filter((x) => x.code === "7").pop()!;
      assert.ok(!/[ é;]/.test(e.data), e.data);
      assert.equal(r.cwd, dir);
      await sh.run("cd /");
    });

    it("a command in the background and a quick one after it each get one C/D", async () => {
      const r1 = await sh.run(kind === "fish" ? "echo one; echo two" : "echo one; echo two");
      assert.equal(r1.count("C"), 1);
      assert.equal(r1.count("D"), 1);
    });
  });
}
