// `termhive attach <session>`: hands this terminal to tmux, attached to the session's pane.
import type { Command } from "commander";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { loadConfig } from "../config.js";
import { ToolError } from "../service/errors.js";
import { connectEngine } from "./connect.js";
import { fail, print } from "./output.js";

export function registerAttach(program: Command): void {
  program
    .command("attach")
    .description("attach this terminal to a session's tmux pane (detach with C-b d)")
    .argument("<session>", "session id or name")
    .option("--json", "print the attach command as JSON instead of running it")
    .action(async (ref: string, o: { json?: boolean }) => {
      const config = loadConfig();
      let target: { session: string; name: string; pane: string; backend: string } | undefined;
      const engine = await connectEngine().catch((e: unknown) => fail(o.json, e));
      try {
        const { sessions } = await engine.ops.list();
        target = sessions.find((s) => s.session === ref || s.name === ref);
        if (!target) throw new ToolError(`unknown session ${JSON.stringify(ref)}; sessions: ${sessions.map((s) => s.name).join(", ") || "none"}`, "not_found");
        if (target.backend !== "tmux") throw new ToolError(`attach is not supported by the ${target.backend} backend`, "unsupported");
      } catch (error) {
        await engine.done().catch(() => {});
        fail(o.json, error);
      }
      await engine.done().catch(() => {});
      const args = ["-S", join(config.home, "tmux.sock"), "attach", "-t", target.pane];
      if (o.json || !process.stdin.isTTY) {
        print(o.json, { session: target.session, name: target.name, pane: target.pane, argv: [config.tmuxPath, ...args] }, () => `${config.tmuxPath} ${args.join(" ")}`);
        return;
      }
      const r = spawnSync(config.tmuxPath, args, { stdio: "inherit" });
      process.exitCode = r.status ?? 1;
    });
}
