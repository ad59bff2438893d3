// The control-mode parser against a stream recorded from a real tmux: every byte value a
// program writes comes back exactly, however the stream is cut into chunks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ControlParser, type Notification, type Reply } from "../../../src/backends/tmux/protocol.js";

const MARK = "END-OF-PAYLOAD";

/** Every byte value, a run of backslashes and digits (escape look-alikes), and a long line. */
function payload(): Buffer {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  return Buffer.concat([all, Buffer.from("\\\\0\\12\\777\\1234 \\"), all, Buffer.from("y".repeat(20_000)), Buffer.from("\n")]);
}

interface Parsed {
  output: Map<string, Buffer>;
  outputEvents: number;
  replies: Reply[];
  /** Kinds in arrival order, adjacent outputs of one pane merged (batching may merge them). */
  order: string[];
}

function parse(stream: Buffer, cuts: number[]): Parsed {
  const parts = new Map<string, Buffer[]>();
  const replies: Reply[] = [];
  const order: string[] = [];
  let outputEvents = 0;
  const parser = new ControlParser(
    (reply) => {
      replies.push(reply);
      order.push("reply");
    },
    (n: Notification) => {
      if (n.kind !== "output") return void order.push(n.kind === "other" ? `%${n.name}` : n.kind);
      outputEvents++;
      parts.set(n.paneId, [...(parts.get(n.paneId) ?? []), Buffer.from(n.data)]);
      const tag = `output ${n.paneId}`;
      if (order[order.length - 1] !== tag) order.push(tag);
    },
  );
  let at = 0;
  for (const cut of [...cuts, stream.length]) {
    // feed takes the chunk over (output is decoded in place): each gets a copy of its own.
    parser.feed(Buffer.from(stream.subarray(at, cut)));
    at = cut;
  }
  return { output: new Map([...parts].map(([k, v]) => [k, Buffer.concat(v)])), outputEvents, replies, order };
}

/** Runs `program` in a raw, echo-less pane of a private tmux and returns tmux's stdout up to MARK. */
async function recordControlStream(file: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), "termhive-protocol-"));
  const socket = join(dir, "tmux.sock");
  const argv = ["sh", "-c", `stty raw -echo; cat ${file}; printf ${MARK}; exec sleep 30`];
  const tmux = spawn("tmux", ["-S", socket, "-f", "/dev/null", "-C", "new-session", "-x", "80", "-y", "24", ...argv], { stdio: ["pipe", "pipe", "pipe"] });
  const chunks: Buffer[] = [];
  let asked = false;
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      tmux.once("exit", (code) => reject(new Error(`tmux exited ${code}`)));
      tmux.stdout.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        // The mark is plain ASCII, so it shows unescaped in the %output line that carries it.
        const all = Buffer.concat(chunks);
        const at = all.indexOf(MARK);
        if (at !== -1 && all.indexOf(0x0a, at) !== -1) {
          if (!asked) tmux.stdin.write("display-message -p hello\n");
          asked = true;
          const reply = all.indexOf("%end ", all.indexOf("hello"));
          if (all.indexOf("hello") !== -1 && reply !== -1 && all.indexOf(0x0a, reply) !== -1) resolve(all.subarray(0, all.indexOf(0x0a, reply) + 1));
        }
      });
    });
  } finally {
    tmux.removeAllListeners("exit");
    spawnSync("tmux", ["-S", socket, "kill-server"]);
    tmux.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a real tmux stream decodes to the exact bytes the program wrote, however it is cut", async () => {
  const dir = mkdtempSync(join(tmpdir(), "termhive-payload-"));
  const file = join(dir, "payload");
  const expected = payload();
  writeFileSync(file, expected);
  try {
    const stream = await recordControlStream(file);
    const whole = parse(stream, []);
    assert.equal(whole.output.size, 1, "one pane wrote output");
    const [pane, bytes] = [...whole.output][0]!;
    assert.match(pane, /^%\d+$/);
    const got = bytes.subarray(0, bytes.indexOf(MARK));
    assert.equal(got.length, expected.length);
    assert.ok(got.equals(expected), "decoded bytes differ from the payload");
    assert.deepEqual(whole.replies.at(-1), { ok: true, lines: ["hello"] });
    assert.equal(whole.order.at(-1), "reply", "the reply comes after the output that preceded it");

    const lines = stream.toString("latin1").split("\n").filter((l) => l.startsWith("%output ")).length;
    assert.ok(lines > 2, `the payload spans several %output lines (${lines})`);
    assert.ok(whole.outputEvents < lines, "consecutive %output lines of a pane in one chunk arrive as one notification");

    const cutsEvery = (step: number) => Array.from({ length: Math.floor((stream.length - 1) / step) }, (_, i) => (i + 1) * step);
    for (const cuts of [cutsEvery(1), cutsEvery(3), cutsEvery(4096), [stream.indexOf("\\") + 1, stream.indexOf("\\") + 2]]) {
      const split = parse(stream, cuts);
      assert.ok(split.output.get(pane)!.equals(bytes), `cut into ${cuts.length + 1} pieces`);
      assert.deepEqual(split.replies, whole.replies);
      assert.deepEqual(split.order, whole.order);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("output of different panes and other notifications keep their order", () => {
  const stream = Buffer.from(
    [
      "%output %1 a\\015\\012",
      "%output %1 b",
      "%output %2 c",
      "%output %1 d",
      "%window-add @3",
      "%extended-output %1 12 : e\\134",
      "%begin 1 7 1",
      "%output %1 not-output",
      "%end 1 7 1",
      "%output %1 f",
      "",
    ].join("\n"),
  );
  const whole = parse(stream, []);
  assert.deepEqual(whole.order, ["output %1", "output %2", "output %1", "%window-add", "output %1", "reply", "output %1"]);
  assert.equal(whole.output.get("%1")!.toString("latin1"), "a\r\nbde\\f");
  assert.equal(whole.output.get("%2")!.toString("latin1"), "c");
  assert.deepEqual(whole.replies, [{ ok: true, lines: ["%output %1 not-output"] }]);
  assert.equal(whole.outputEvents, 5, "a and b (same pane, adjacent) are one notification");
});
