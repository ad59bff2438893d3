import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync } from "node:fs";
const home = mkdtempSync("/tmp/op-");
const prof = process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : [];
const t = new StdioClientTransport({ command: process.execPath, args: [...prof, "/work/main/dist/bundle/cli.js", "mcp"], env: { HOME: home, PATH: process.env.PATH, TERMHIVE_HOME: home + "/th" }, cwd: home, stderr: "inherit" });
const c = new Client({ name: "p", version: "1" });
await c.connect(t);
const call = async (name, args) => { const r = await c.callTool({ name, arguments: args }); return r.structuredContent ?? r.content[0].text; };
const panes = Array.from({ length: 32 }, (_, i) => ({ name: `a${i}`, agent: `a${i}`, team: `t${i % 4}`, command: "bash", profile: "shell" }));
await call("hive_layout", { layout: "tiled", panes, rows: 200, cols: 480 });
const times = [];
for (let i = 0; i < 15; i++) {
  const teams = Object.fromEntries(Array.from({ length: 4 }, (_, t) => [`t${t}`, `echo CASC-${i}-t${t}`]));
  const agents = Object.fromEntries(Array.from({ length: 4 }, (_, t) => [`a${t}`, `echo CASC-${i}-a${t}`]));
  const t0 = performance.now();
  await call("hive_message", { teams, agents });
  times.push(performance.now() - t0);
  await call("hive_wait", { targets: "all", for: "idle", timeout_s: 5 }).catch(() => {});
}
console.log("cascade", times.map((x) => x.toFixed(0)).join(" "));
await c.close();
