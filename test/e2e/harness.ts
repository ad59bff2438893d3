// Drives the built server (dist/) through the official MCP SDK client over stdio,
// against a private tmux server in a temporary TERMHIVE_HOME.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { removeTempFolder, tempFolder } from "../temp-folder.js";
import { endTmuxServer } from "../tmux-server.js";

/** _meta key of a tool's whole result (src/mcp/result.ts). */
export const RESULT_META = "termhive/result";

// The bundled command users run (package.json "bin"), not the per-file tsc output.
export const CLI = resolve("dist/bundle/cli.js");

export interface ToolResult {
  text: string;
  /** structuredContent as sent (only tools with an outputSchema have it). */
  structured?: Record<string, unknown>;
  data: Record<string, any>;
  isError: boolean;
}

/** TERMHIVE_E2E_BACKEND=pty|tmux runs the suite against that backend (the server's own default otherwise). */
export const E2E_BACKEND = process.env.TERMHIVE_E2E_BACKEND;

function backendEnv(): Record<string, string> {
  return E2E_BACKEND ? { TERMHIVE_BACKEND: E2E_BACKEND } : {};
}

export class Harness {
  client!: Client;
  transport!: StdioClientTransport;
  progress: { progress: number; message?: string }[] = [];

  /** The server's working directory (undefined: the test runner's, i.e. the repo). */
  cwd?: string;
  /** Capabilities the client declares (elicitation, …); none by default. */
  clientOptions?: ConstructorParameters<typeof Client>[1];
  /** Field mode: the server gets only the env a bare client gives (HOME, PATH, TERMHIVE_HOME + this.env). */
  bare = false;

  constructor(readonly home: string, readonly env: Record<string, string> = {}) {}

  /**
   * Starts the server as a real client does on first contact: a bare environment (HOME and
   * PATH only: no LANG, no SHELL, no TERM) and a working directory that is not the repo.
   * `env` is added on top (use it for test knobs only, never to make the field case pass).
   */
  static async startField(env: Record<string, string> = {}): Promise<Harness> {
    const home = tempFolder("termhive-field-");
    const userHome = join(home, "user");
    mkdirSync(userHome);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    writeFileSync(join(userHome, ".zshrc"), "export TERMHIVE_E2E_RC=1\n");
    quietFish(userHome);
    const work = join(home, "work folder");
    mkdirSync(work);
    const harness = new Harness(home, { HOME: userHome, ...env });
    harness.bare = true;
    harness.cwd = work;
    await harness.connect();
    return harness;
  }

  /** A second server process, connected, on this harness's home, env, bareness and cwd. */
  async sibling(): Promise<Harness> {
    const other = new Harness(this.home, this.env);
    other.bare = this.bare;
    other.cwd = this.cwd;
    await other.connect();
    return other;
  }

  /** The environment the server process gets. */
  serverEnv(): Record<string, string> {
    if (this.bare) {
      return { PATH: process.env.PATH ?? "/usr/bin:/bin", TERMHIVE_HOME: this.home, ...backendEnv(), ...this.env };
    }
    return { ...(process.env as Record<string, string>), TERMHIVE_HOME: this.home, SHELL: "/bin/bash", ...backendEnv(), ...this.env };
  }

  /**
   * One tool call on a fresh server process that exits after it (how the MCP Inspector CLI
   * and many short-lived clients call), on this harness's home, env and cwd.
   */
  async callOnce(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    const once = await this.sibling();
    try {
      return await once.call(name, args);
    } finally {
      await once.close();
    }
  }

  static async start(env: Record<string, string> = {}): Promise<Harness> {
    const home = tempFolder("termhive-e2e-");
    // Shells start from a HOME of the test's own: the developer's rc files (pyenv init,
    // prompts, plugins) would make start-up slow and results depend on the machine.
    const userHome = join(home, "user");
    mkdirSync(userHome);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    writeFileSync(join(userHome, ".zshrc"), "export TERMHIVE_E2E_RC=1\n");
    quietFish(userHome);
    const harness = new Harness(home, { HOME: userHome, ...env });
    await harness.connect();
    return harness;
  }

  async connect(): Promise<void> {
    this.transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp"],
      env: this.serverEnv(),
      ...(this.cwd ? { cwd: this.cwd } : {}),
      stderr: "pipe",
    });
    this.client = new Client({ name: "termhive-e2e", version: "1.0.0" }, this.clientOptions);
    await this.client.connect(this.transport);
  }

  /** The server's pid (for kill -9 tests). */
  get pid(): number {
    return this.transport.pid!;
  }

  async call(name: string, args: Record<string, unknown> = {}, options: { progress?: boolean } = {}): Promise<ToolResult> {
    const result = (await this.client.callTool(
      { name, arguments: args },
      undefined,
      {
        timeout: 120_000,
        ...(options.progress ? { onprogress: (p: { progress: number; message?: string }) => this.progress.push(p) } : {}),
      },
    )) as { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown>; isError?: boolean };
    return {
      text: result.content.map((c) => c.text).join("\n"),
      // The verb's whole result (src/mcp/result.ts): structuredContent is only the lean typed part.
      data: (result._meta?.[RESULT_META] ?? result.structuredContent ?? {}) as Record<string, any>,
      structured: result.structuredContent,
      isError: result.isError === true,
    };
  }

  /** Calls a tool and fails with its message if it returned an error. */
  async ok(name: string, args: Record<string, unknown> = {}, options: { progress?: boolean } = {}): Promise<Record<string, any>> {
    const result = await this.call(name, args, options);
    if (result.isError) throw new Error(`${name} failed: ${result.text}`);
    return result.data;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
  }

  tmux(...args: string[]): { status: number | null; stdout: string } {
    const r = spawnSync("tmux", ["-S", join(this.home, "tmux.sock"), ...args], { encoding: "utf8" });
    return { status: r.status, stdout: r.stdout };
  }

  async destroy(): Promise<void> {
    await this.close();
    // Its panes' programs have ended (written their history) before their HOME is removed.
    await endTmuxServer(join(this.home, "tmux.sock"));
    removeTempFolder(this.home);
  }
}

/**
 * An interactive fish whose HOME has no generated completions starts fish_update_completions in
 * the background, which goes on writing into that HOME after the test has ended its tmux
 * server: the folder's removal then fails (ENOTEMPTY). The folder made empty beforehand stops it.
 */
function quietFish(userHome: string): void {
  mkdirSync(join(userHome, ".local", "share", "fish", "generated_completions"), { recursive: true });
}
