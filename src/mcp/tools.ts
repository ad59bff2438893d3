// The MCP door: one tool per service operation, descriptions written for a model.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { guard, ok } from "./result.js";
import { strictInput } from "./strict.js";
import * as schemas from "../service/schemas.js";
import type { CallContext, TermhiveService } from "../service/service.js";
import { formatJson, formatRead, formatRun, formatWait } from "./format.js";

export type Extra = {
  sessionId?: string;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; message?: string } }) => Promise<void>;
};

export function context(extra: Extra, fallbackClient: string): CallContext {
  const token = extra._meta?.progressToken;
  return {
    clientId: extra.sessionId ?? fallbackClient,
    onProgress:
      token === undefined
        ? undefined
        : (ms, message) => void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: ms / 1000, message } }).catch(() => {}),
  };
}


export function registerTerminalTools(server: McpServer, service: TermhiveService, clientId = "stdio"): void {
  server.registerTool(
    "terminal_open",
    {
      title: "Open a terminal session",
      description:
        "Open a persistent terminal session (your shell by default, or a program such as python3, psql, ssh host). It stays open across calls and termhive restarts. Returns the session id/name and the command a person runs to attach and watch.",
      inputSchema: strictInput(schemas.openInput),
    },
    (input) => guard(async () => {
      const r = await service.open(input);
      return ok(r, `opened ${r.name} (${r.session}) · ${r.backend}${r.host ? ` on ${r.host}` : ""} · pid ${r.pid}${r.integrated ? " · shell integration on" : ""}\nwatch it: ${r.attach ?? "(not attachable)"}${r.warning ? `\nwarning: ${r.warning}` : ""}`);
    }),
  );
  server.registerTool(
    "terminal_run",
    {
      title: "Run a command and wait for it",
      description:
        "Type a command into a session and wait until it finishes. Returns only the command's own output (cleaned, folded when long), the exit code, and why it counted as complete: osc133 (shell reported the end), exit, until (your regex), nested-prompt (a REPL/remote prompt is back), fullscreen (a full-screen program such as vim or less has drawn its screen: the output is that screen, it keeps running; go on with terminal_send), idle, or timeout (it keeps running). Works inside REPLs (python, node, psql) and ssh. Without session, the command runs in a throwaway shell in your folder (or cwd) that is closed when the command finishes; if it is still running the session is kept and named in the result.",
      inputSchema: strictInput(schemas.runInput),
    },
    (input, extra) => guard(async () => {
      const r = await service.run(input, context(extra as Extra, clientId));
      return ok(r, formatRun(r));
    }),
  );
  server.registerTool(
    "terminal_send",
    {
      title: "Type text or keys",
      description:
        "Type into a session without waiting: text (Enter pressed unless enter: false; text ending in a newline is submitted either way; multi-line text is pasted), named keys (C-c, Up, Escape, F1, M-x…), or a secret (password) that is never logged or returned. Use for interactive programs (vim, less, prompts); use terminal_run for commands.",
      inputSchema: strictInput(schemas.sendInput),
    },
    (input, extra) => guard(async () => {
      const r = await service.send(input, context(extra as Extra, clientId));
      return ok(r, `sent ${r.sent_bytes} bytes${r.keys ? ` and ${r.keys} keys` : ""}`);
    }),
  );
  server.registerTool(
    "terminal_read",
    {
      title: "Read a session",
      description:
        "Read a session: new output since your last read, the rendered screen (for vim/less/htop), a screen diff, a range of lines, or everything. Long output is folded; fold markers give the exact terminal_read call for the hidden lines.",
      inputSchema: strictInput(schemas.readInput),
    },
    (input, extra) => guard(async () => {
      const r = await service.read(input, context(extra as Extra, clientId));
      return ok(r, formatRead(r));
    }),
  );
  server.registerTool(
    "terminal_wait",
    {
      title: "Wait for output, completion, idle or exit",
      description:
        "Block until a regex appears in the output (output printed since your last read counts), the running command completes, the output goes idle, or the program exits. Returns the output since your last read.",
      inputSchema: strictInput(schemas.waitInput),
    },
    (input, extra) => guard(async () => {
      const r = await service.wait(input, context(extra as Extra, clientId));
      return ok(r, formatWait(r));
    }),
  );
  server.registerTool(
    "terminal_list",
    {
      title: "List sessions",
      description: "List every session: name, id, host (remote sessions), alive, foreground program, cwd, running command, last exit code, idle seconds, and whether a full-screen app is active.",
      inputSchema: strictInput(schemas.listInput),
    },
    () => guard(async () => {
      const r = await service.list();
      const lines = r.sessions.map(
        (s) => `${s.name} (${s.session})${s.host ? ` on ${s.host}` : ""} ${s.alive ? "alive" : `exited ${s.exit_code}`} · ${s.foreground}${s.running ? ` · running: ${s.running}` : ""}${s.last_exit_code !== null ? ` · last exit ${s.last_exit_code}` : ""} · idle ${s.idle_s}s${s.tui ? " · full-screen" : ""}${s.cwd ? ` · ${s.cwd}` : ""}`,
      );
      return ok(r, lines.length ? lines.join("\n") : "no sessions; open one with terminal_open");
    }),
  );
  server.registerTool(
    "terminal_close",
    {
      title: "Close a session",
      description: "Close a session and its pane. Refused while a command runs unless force: true.",
      inputSchema: strictInput(schemas.closeInput),
    },
    (input) => guard(async () => {
      const r = await service.close(input);
      return ok(r, `closed ${r.name}${r.exit_code !== undefined ? ` (exit ${r.exit_code})` : ""}`);
    }),
  );
  server.registerTool(
    "terminal_resize",
    {
      title: "Resize a session",
      description: "Set a session's terminal size in rows and columns.",
      inputSchema: strictInput(schemas.resizeInput),
    },
    (input) => guard(async () => {
      const r = await service.resize(input);
      return ok(r, formatJson(r));
    }),
  );
}
