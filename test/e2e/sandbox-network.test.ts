// Issue 30 §3, the network of a preset sandbox: its own namespace (pasta) that keeps other hosts
// and the resolver but reaches no loopback service of this host, except the ports the policy
// names (or the loopback API the pane's environment points its agent at). Judged by what a real
// bash inside real bubblewrap reaches, and by the pasta processes left on the machine.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { findPasta } from "../../src/sandbox/network.js";
import { Harness } from "./harness.js";
import { outsideTmp } from "../temp-folder.js";

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = !bwrap ? "bubblewrap (bwrap) is not installed (apt-get install bubblewrap)" : !findPasta() ? "pasta is not installed (apt-get install passt; .ci/run installs it)" : false;
/** Another "host": a network namespace with a veth pair (needs root and iproute2). */
const canNetns = process.getuid?.() === 0 && spawnSync("ip", ["-V"]).status === 0;
const NS = `thnet${process.pid}`;
const PEER = "10.213.77.2";
/** The host's default gateway: pasta could map it to the host's loopback (--no-map-gw turns that off). */
const GATEWAY = spawnSync("ip", ["-4", "route", "show", "default"], { encoding: "utf8" }).stdout?.match(/via (\d+\.\d+\.\d+\.\d+)/)?.[1];

/** A TCP service that answers one word and counts who came. */
async function service(host: string, word: string): Promise<{ server: Server; port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((c) => {
    hits++;
    c.end(word + "\n");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, hits: () => hits };
}

/** The pasta processes holding the network namespace `ns` ("net:[…]"). */
function pastasOf(ns: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("pass")) continue;
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => { try { return readlinkSync(`/proc/${pid}/fd/${fd}`) === ns; } catch { return false; } })) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe("a preset sandbox's network: other hosts yes, this host's loopback services no", { skip }, () => {
  let h: Harness;
  let root = "";
  let project = "";
  let secret: Awaited<ReturnType<typeof service>>;
  let allowed: Awaited<ReturnType<typeof service>>;
  let peer: ChildProcess | undefined;
  const peerPort = 18000 + (process.pid % 1000);

  before(async () => {
    root = mkdtempSync(join(outsideTmp(), "termhive-net-"));
    const userHome = join(root, "user");
    project = join(userHome, "proj");
    mkdirSync(join(userHome, ".local", "state", "termhive"), { recursive: true });
    mkdirSync(project);
    secret = await service("127.0.0.1", "secret-service");
    allowed = await service("127.0.0.1", "allowed-service");
    if (canNetns) {
      const sh = (cmd: string) => assert.equal(spawnSync("sh", ["-c", cmd]).status, 0, cmd);
      sh(`ip netns add ${NS} && ip link add ${NS}a type veth peer name ${NS}b && ip link set ${NS}b netns ${NS} && ip addr add 10.213.77.1/24 dev ${NS}a && ip link set ${NS}a up && ip -n ${NS} addr add ${PEER}/24 dev ${NS}b && ip -n ${NS} link set ${NS}b up && ip -n ${NS} link set lo up`);
      peer = spawn("ip", ["netns", "exec", NS, process.execPath, "-e", `require("net").createServer((c) => c.end("other-host\\n")).listen(${peerPort}, "${PEER}", () => console.log("up"))`], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve) => peer!.stdout!.once("data", () => resolve()));
    }
    h = new Harness(join(userHome, ".local", "state", "termhive"), { HOME: userHome });
    h.bare = true;
    h.cwd = project;
    await h.connect();
  });
  after(async () => {
    await h?.destroy();
    secret?.server.close();
    allowed?.server.close();
    peer?.kill();
    if (canNetns) spawnSync("sh", ["-c", `ip link del ${NS}a; ip netns del ${NS}`]);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = async (session: string, command: string) => (await h.ok("terminal_run", { session, command, timeout_s: 30 })).output as string;
  /** bash's /dev/tcp: the service's word, or "refused". */
  const reach = (host: string, port: number) => `{ timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${port} && head -n1 <&3' 2>/dev/null || echo refused-${host}-${port}; }`;

  for (const preset of ["readonly", "worktree"] as const) {
    test(`${preset}: 127.0.0.1, localhost, ::1, 127.0.0.2 and the gateway reach no loopback service; the policy says network outside`, async () => {
      const before = secret.hits();
      const opened = await h.ok("terminal_open", { name: `net-${preset}`, command: "bash", cwd: project, sandbox: preset });
      assert.match(String(opened.sandbox), new RegExp(`^${preset}: .*; network outside$`));
      const out = await run(`net-${preset}`, `${reach("127.0.0.1", secret.port)}; ${reach("localhost", secret.port)}; ${reach("::1", secret.port)}; ${reach("127.0.0.2", secret.port)}${GATEWAY ? `; ${reach(GATEWAY, secret.port)}` : ""}`);
      assert.doesNotMatch(out, /secret-service/, out);
      for (const host of ["127.0.0.1", "localhost", "::1", "127.0.0.2", ...(GATEWAY ? [GATEWAY] : [])]) assert.match(out, new RegExp(`^refused-${host.replace(/\./g, "\\.")}-${secret.port}$`, "m"), out);
      assert.equal(secret.hits(), before, "the host's loopback service saw a connection");
      await h.ok("terminal_close", { session: `net-${preset}` });
    });
  }

  test("the policy's loopback_ports reach those ports only; a preset takes the port of the agent's loopback API from the pane's environment", async () => {
    const { sandbox } = await h.ok("terminal_open", { name: "net-named", command: "bash", cwd: project, sandbox: { write: [], network: "outside", loopback_ports: [allowed.port] } });
    assert.match(String(sandbox), new RegExp(`network outside \\(loopback ${allowed.port}\\)`));
    const out = await run("net-named", `${reach("127.0.0.1", allowed.port)}; ${reach("127.0.0.1", secret.port)}`);
    assert.match(out, /^allowed-service$/m);
    assert.match(out, new RegExp(`refused-127\\.0\\.0\\.1-${secret.port}`));
    const env = { ANTHROPIC_BASE_URL: `http://127.0.0.1:${allowed.port}` };
    const agent = await h.ok("terminal_open", { name: "net-api", command: "bash", cwd: project, sandbox: "readonly", env });
    assert.match(String(agent.sandbox), new RegExp(`^readonly: .*network outside \\(loopback ${allowed.port}\\)$`));
    const api = await run("net-api", `${reach("127.0.0.1", allowed.port)}; ${reach("127.0.0.1", secret.port)}`);
    assert.match(api, /^allowed-service$/m);
    assert.match(api, new RegExp(`refused-127\\.0\\.0\\.1-${secret.port}`));
    assert.equal(secret.hits(), 0);
    for (const s of ["net-named", "net-api"]) await h.ok("terminal_close", { session: s });
  });

  test("loopback_ports: bad values and other modes are refused, naming the field; nothing opens", async () => {
    for (const [policy, text] of [
      [{ write: [], network: "outside", loopback_ports: [0] }, /sandbox\.loopback_ports is invalid: it takes a list/],
      [{ write: [], network: "outside", loopback_ports: ["5432"] }, /sandbox\.loopback_ports is invalid: it takes a list/],
      [{ write: [], network: "on", loopback_ports: [5432] }, /sandbox\.loopback_ports is only for network "outside"/],
      [{ write: [], network: "off", loopback_ports: [5432] }, /sandbox\.loopback_ports is only for network "outside"/],
    ] as const) {
      const r = await h.call("terminal_open", { name: "net-bad", command: "bash", cwd: project, sandbox: policy });
      assert.equal(r.isError, true, JSON.stringify(policy));
      assert.match(r.text, text);
    }
    const list = await h.ok("terminal_list", {});
    assert.equal(JSON.stringify(list).includes("net-bad"), false);
  });

  test("another host (a listener in another network namespace) and the resolver are reachable from a preset pane", { skip: canNetns ? false : "needs root and iproute2 for a second network namespace" }, async () => {
    await h.ok("terminal_open", { name: "net-out", command: "bash", cwd: project, sandbox: "readonly" });
    const out = await run("net-out", reach(PEER, peerPort));
    assert.match(out, /^other-host$/m, out);
    // DNS: the host's resolver, if it is not on loopback and answers the host, answers inside too
    // (this machine is offline: an answer of any kind is what can be checked, not a name).
    const resolver = readFileSync("/etc/resolv.conf", "utf8").match(/^nameserver\s+(\d+\.\d+\.\d+\.\d+)/m)?.[1];
    const query = (ip: string) => `python3 -c "import socket;s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM);s.settimeout(4);s.sendto(bytes.fromhex('123401000001000000000000076578616d706c6503636f6d0000010001'),('${ip}',53));print('dns-answer',len(s.recv(512)))"`;
    if (resolver && !resolver.startsWith("127.") && /dns-answer/.test(spawnSync("sh", ["-c", query(resolver)], { encoding: "utf8" }).stdout)) {
      assert.match(await run("net-out", `${query(resolver)} 2>&1`), /dns-answer \d+/);
    }
    await h.ok("terminal_close", { session: "net-out" });
  });

  test("kill -9 of the server: a fresh one finds the pane with its network and rules; closed, its pasta is gone", async () => {
    await h.ok("terminal_open", { name: "net-k", command: "bash", cwd: project, sandbox: "readonly" });
    const ns = (await run("net-k", "readlink /proc/self/ns/net")).trim();
    assert.match(ns, /^net:\[\d+\]$/);
    assert.equal(pastasOf(ns).length, 1, "one pasta holds the pane's namespace");
    process.kill(h.pid, "SIGKILL");
    await h.close();
    await h.connect();
    const out = await run("net-k", `${canNetns ? reach(PEER, peerPort) + "; " : ""}${reach("127.0.0.1", secret.port)}`);
    if (canNetns) assert.match(out, /^other-host$/m, out);
    assert.match(out, new RegExp(`refused-127\\.0\\.0\\.1-${secret.port}`));
    await h.ok("terminal_close", { session: "net-k" });
    const deadline = Date.now() + 10_000;
    while (pastasOf(ns).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(pastasOf(ns), [], "pasta outlived the pane");
  });

  test("agent_restore brings back the granted network and its loopback ports (the tmux server gone)", async () => {
    await h.ok("terminal_open", { name: "net-r", command: "bash", cwd: project, sandbox: { write: [], network: "outside", loopback_ports: [allowed.port] } });
    await h.ok("agent_register", { name: "net-r", session: "net-r" });
    assert.equal(h.tmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { name: "net-r" });
    assert.equal(r.restored[0].ok, true, JSON.stringify(r));
    const listed = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "net-r");
    assert.match(String(listed.sandbox), new RegExp(`network outside \\(loopback ${allowed.port}\\)$`));
    const out = await run("net-r", `${reach("127.0.0.1", allowed.port)}; ${reach("127.0.0.1", secret.port)}`);
    assert.match(out, /^allowed-service$/m);
    assert.match(out, new RegExp(`refused-127\\.0\\.0\\.1-${secret.port}`));
  });
});
