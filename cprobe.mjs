import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
const home = mkdtempSync("/tmp/op-");
const t = new StdioClientTransport({ command: process.execPath, args: ["/work/main/dist/bundle/cli.js", "mcp"], env: { HOME: home, PATH: process.env.PATH, TERMHIVE_HOME: home + "/th" }, cwd: home, stderr: "inherit" });
const c = new Client({ name: "p", version: "1" });
await c.connect(t);
const call = async (name, args) => { const r = await c.callTool({ name, arguments: args }); return r.content[0].text; };
await call("terminal_open", { name: "s", command: "bash" });
let bad = 0;
const mode = process.argv[2] ?? "text";
for (let i = 0; i < 150; i++) {
  if (mode === "text") await call("terminal_send", { session: "s", text: "half typed", enter: false });
  await call("terminal_send", { session: "s", keys: ["C-c"] });
  const r = await call("terminal_run", { session: "s", command: `echo kept-${i}` });
  if (!r.startsWith(`kept-${i}`)) { bad++; console.log(r.slice(0, 80)); const t = spawnSync("tmux", ["-S", home + "/th/tmux.sock", "capture-pane", "-p", "-t", "s"], { encoding: "utf8" }); console.log(t.stdout.split("\n").filter(Boolean).slice(-8).join("\n")); }
}
console.log(mode, "bad", bad);
await call("terminal_close", { session: "s" });
await c.close();
spawnSync("tmux", ["-S", home + "/th/tmux.sock", "kill-server"]); rmSync(home, { recursive: true, force: true });
