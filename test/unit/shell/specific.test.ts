// Cases where the shells differ: the user's prompt hooks, PS1, login files, ZDOTDIR,
// `exec` into another shell, fish's Ctrl-C burst; plus the launcher contract.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ShellSession, shellPath, kindOf, type Shell } from "./helpers.js";
import { detectShell, integrationLaunch } from "../../../src/shell/integration.js";

const only = process.env.TERMHIVE_TEST_SHELLS?.split(",");
const skipFor = (...kinds: Shell[]): string | false => {
  for (const k of kinds) {
    if (!shellPath(k)) return `${k} not installed`;
    if (only && !only.includes(k)) return "filtered out";
  }
  return false;
};

/** Runs `fn` with a session and always closes it. */
async function withShell(kind: Shell, opts: Parameters<typeof ShellSession.start>[1], fn: (s: ShellSession) => Promise<void>): Promise<void> {
  const s = await ShellSession.start(kind, opts);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

describe("launcher contract", () => {
  it("detectShell knows bash/zsh/fish by basename, login dash included", () => {
    assert.equal(detectShell("/usr/bin/bash"), "bash");
    assert.equal(detectShell("-zsh"), "zsh");
    assert.equal(detectShell("fish"), "fish");
    assert.equal(detectShell("/bin/sh"), "other");
    assert.equal(detectShell("python3"), "other");
  });

  it("unknown programs run as given, with no extra env", () => {
    for (const p of ["/bin/sh", "dash", "python3", "ssh"]) {
      const l = integrationLaunch(p, { stateDir: "/tmp/x" });
      assert.deepEqual(l, { kind: "other", argv: [p], env: {} });
    }
  });

  it("bash/zsh/fish get argv and env pointing at shipped files", () => {
    const b = integrationLaunch("/usr/bin/bash", { stateDir: "/tmp/x" });
    assert.equal(b.argv[0], "/usr/bin/bash");
    assert.ok(b.argv.includes("--rcfile"));
    assert.match(b.argv[b.argv.indexOf("--rcfile") + 1]!, /src\/shell\/bash\/termhive\.bash$/);
    assert.ok(b.env.TERMHIVE_SHELL_DIR);
    const z = integrationLaunch("/usr/bin/zsh", { stateDir: "/tmp/x", baseEnv: { ZDOTDIR: "/u/z" } });
    assert.match(z.env.ZDOTDIR!, /src\/shell\/zsh$/);
    assert.equal(z.env.TERMHIVE_USER_ZDOTDIR, "/u/z");
    const z2 = integrationLaunch("/usr/bin/zsh", { stateDir: "/tmp/x", baseEnv: {} });
    assert.equal("TERMHIVE_USER_ZDOTDIR" in z2.env, false);
    const f = integrationLaunch("/usr/bin/fish", { stateDir: "/tmp/x", login: true });
    assert.ok(f.argv.includes("-l"));
    assert.match(f.argv.at(-1)!, /^source '.*termhive\.fish'$/);
  });
});

describe("bash specifics", { skip: skipFor("bash") }, () => {
  it("a failing string PROMPT_COMMAND still runs, sees $?, and D is still right", async () => {
    const rc = [
      "PS1='mine\\$ '",
      // A string PROMPT_COMMAND that records the $? it saw, then fails.
      "PROMPT_COMMAND='echo \"user-pc-saw=$?\"; false'",
    ].join("\n");
    await withShell("bash", { files: { ".bashrc": rc } }, async (s) => {
      const r = await s.run("(exit 4)");
      assert.equal(r.exit, 4);
      assert.match(s.parser.text, /user-pc-saw=4/);
      const r2 = await s.run("true");
      assert.equal(r2.exit, 0);
      assert.match(s.parser.text, /mine[#$] /); // the user's PS1 is what is shown
    });
  });

  it("an array PROMPT_COMMAND keeps every element, each seeing the command's $?", async () => {
    const rc = "PROMPT_COMMAND=('echo one=$?' 'echo two=$?')\n";
    await withShell("bash", { files: { ".bashrc": rc } }, async (s) => {
      const r = await s.run("(exit 5)");
      assert.equal(r.exit, 5);
      assert.match(s.parser.text, /one=5[\s\S]*two=5/);
    });
  });

  it("PROMPT_COMMAND / PS1 changed after startup: markers come back, user's PS1 shown", async () => {
    await withShell("bash", {}, async (s) => {
      await s.run("PS1='later> '");
      const r = await s.run("false");
      assert.equal(r.exit, 1);
      assert.ok(r.kinds().includes("A") && r.kinds().includes("B"));
      assert.match(s.parser.text, /later> /);
      // A user PROMPT_COMMAND added with += keeps ours in place.
      await s.run("PROMPT_COMMAND+=('echo added=$?')");
      const r2 = await s.run("(exit 6)");
      assert.equal(r2.exit, 6);
      assert.match(s.parser.text, /added=6/);
    });
  });

  it("$? in the user's PS1 is the command's status", async () => {
    await withShell("bash", { files: { ".bashrc": "PS1='[st=$?]\\$ '\n" } }, async (s) => {
      await s.run("(exit 7)");
      assert.match(s.parser.text, /\[st=7\]/);
    });
  });

  it("login: /etc/profile + ~/.bash_profile are read instead of ~/.bashrc", async () => {
    const files = { ".bash_profile": "export TH_LOGIN=yes\n", ".bashrc": "export TH_RC=yes\n" };
    await withShell("bash", { files, login: true }, async (s) => {
      const r = await s.run("echo login=$TH_LOGIN rc=${TH_RC-none}");
      assert.match(r.output, /login=yes rc=none/);
    });
  });
});

describe("zsh specifics", { skip: skipFor("zsh") }, () => {
  it("user's precmd sees the command's $?, PS1 kept, ZDOTDIR given back (unset)", async () => {
    const rc = "PS1='zmine%# '\nprecmd() { echo \"user-precmd-saw=$?\" }\n";
    await withShell("zsh", { files: { ".zshrc": rc } }, async (s) => {
      const r = await s.run("(exit 4)");
      assert.equal(r.exit, 4);
      assert.match(s.parser.text, /user-precmd-saw=4/);
      assert.match(s.parser.text, /zmine# /);
      const z = await s.run("echo zdotdir=${ZDOTDIR-unset} user=${TERMHIVE_USER_ZDOTDIR-unset}");
      assert.match(z.output, /zdotdir=unset user=unset/);
    });
  });

  it("a user ZDOTDIR (set in ~/.zshenv) is honoured for .zshrc and restored", async () => {
    const files = {
      ".zshenv": "export ZDOTDIR=$HOME/zdot\n",
      "zdot/.zshrc": "export TH_FROM=zdot-zshrc\n",
      ".zshrc": "export TH_FROM=home-zshrc\n",
    };
    await withShell("zsh", { files }, async (s) => {
      const r = await s.run("echo from=$TH_FROM dir=$ZDOTDIR");
      assert.match(r.output, new RegExp(`from=zdot-zshrc dir=${s.home}/zdot`));
    });
  });

  it("login: .zprofile, .zshrc and .zlogin are all read", async () => {
    const files = { ".zprofile": "export A1=p\n", ".zshrc": "export A2=r\n", ".zlogin": "export A3=l\n" };
    await withShell("zsh", { files, login: true }, async (s) => {
      const r = await s.run("echo got=$A1$A2$A3 zd=${ZDOTDIR-unset}");
      assert.match(r.output, /got=prl zd=unset/);
    });
  });

  it("local declarations in the user's .zshrc survive (sourced at top level)", async () => {
    await withShell("zsh", { files: { ".zshrc": "typeset -A thmap\nthmap[k]=v\n" } }, async (s) => {
      const r = await s.run("echo map=${thmap[k]}");
      assert.match(r.output, /map=v/);
    });
  });
});

describe("fish specifics", { skip: skipFor("fish") }, () => {
  it("Ctrl-C and a command in one burst: still one C before the D", async () => {
    await withShell("fish", {}, async (s) => {
      const r = await s.run("\x03true");
      assert.equal(r.count("C"), 1, r.kinds().join(" "));
      assert.equal(r.exit, 0);
    });
  });

  it("the user's fish_prompt is kept and $status visible to it", async () => {
    const prompt = "function fish_prompt\n  echo -n \"fmine[$status]> \"\nend\n";
    await withShell("fish", { files: { ".config/fish/functions/fish_prompt.fish": prompt } }, async (s) => {
      await s.run("false");
      assert.match(s.parser.text, /fmine\[1\]> /);
      // A prompt redefined later is wrapped again.
      await s.run("function fish_prompt; echo -n 'newp> '; end");
      const r = await s.run("true");
      assert.ok(r.kinds().includes("A") && r.kinds().includes("B"));
      assert.match(s.parser.text, /newp> /);
    });
  });
});

// exec into a shell: the old shell's C for the `exec` line is closed by D;0 from the
// new shell, which is integrated (and still reads the user's rc).
const execCases: Array<[Shell, Shell]> = [
  ["bash", "bash"],
  ["bash", "zsh"],
  ["bash", "fish"],
  ["zsh", "zsh"],
  ["zsh", "bash"],
];
describe("exec into a shell keeps integration", () => {
  for (const [from, to] of execCases) {
    it(`${from}: exec ${to}`, { skip: skipFor(from, to) }, async () => {
      const files = {
        ".bashrc": "export TH_RC=bash\n",
        ".zshrc": "export TH_RC=zsh\n",
        ".config/fish/config.fish": "set -gx TH_RC fish\n",
      };
      await withShell(from, { files }, async (s) => {
        const r = await s.run(`exec ${to}`);
        assert.equal(r.exit, 0);
        assert.equal(r.count("C"), 1);
        const r2 = await s.run("false");
        assert.equal(r2.exit, 1);
        const r3 = await s.run("echo rc=$TH_RC");
        assert.match(r3.output, new RegExp(`rc=${to}`));
        const r4 = await s.run("cd /tmp");
        assert.equal(r4.cwd, "/tmp");
      });
    });
  }

  it("a nested bash is integrated and its parent's D comes when it exits", { skip: skipFor("bash") }, async () => {
    await withShell("bash", {}, async (s) => {
      const from = s.mark();
      s.write("bash\r");
      // The inner shell's first prompt: a B with no D before it.
      const b = await s.waitFor((e) => kindOf(e) === "B", from);
      assert.ok(!s.events.slice(from, b).some((e) => kindOf(e) === "D"));
      const inner = await s.run("(exit 2)");
      assert.equal(inner.exit, 2);
      const out = await s.run("exit 9");
      assert.equal(out.exit, 9); // the outer shell's D for `bash`
    });
  });
});
