// What a sandboxed pane may touch: the `sandbox` option of terminal_open, as given
// (a preset name or an explicit policy), and the policy it resolves to for one pane.
import { z } from "zod";
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";

export const NETWORK_MODES = ["outside", "on", "off", "loopback"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];
export const SANDBOX_PRESETS = ["worktree", "readonly"] as const;

/** A resolved policy: absolute paths, every field set. Kept on the pane (JSON) for every process. */
export interface SandboxPolicy {
  /** Folders and files the program may write (everything else is read-only or absent). */
  write: string[];
  /** "all": the whole filesystem is readable; a list: only those paths, plus the system's programs and libraries. */
  read: "all" | string[];
  /**
   * "outside": a network namespace of its own with the internet and other hosts, but no loopback
   * service of this host except `loopback_ports` (sandbox/network.ts; the presets'). "on": the
   * host's network, its loopback services included. "off"/"loopback": no network but its own loopback.
   */
  network: NetworkMode;
  /** With "outside": the host's loopback TCP ports the program may reach (127.0.0.1:P inside goes to 127.0.0.1:P outside). */
  loopback_ports?: number[];
  /** "clean": the pane starts with only the basic variables (HOME, PATH, USER, LANG…), not the caller's others. */
  env?: "clean";
  /** "allow": the program may open unix sockets (chromium's own, a nested tmux): any socket file it can see is then reachable. */
  unix_sockets?: "allow";
  /** The preset it came from, to show. */
  preset?: (typeof SANDBOX_PRESETS)[number];
}

const path = z.string();
/** More ports than this is a wish for the host's whole loopback: network "on" says that. */
export const MAX_LOOPBACK_PORTS = 32;
/** A word that is no preset is named back with the ones there are (zod's own text says only "Invalid input"). */
const unknownPreset = (input: unknown) =>
  typeof input === "string" ? `unknown sandbox preset ${JSON.stringify(input.slice(0, 64))}: the presets are ${SANDBOX_PRESETS.join(", ")} (or a policy {write, read?, network, env?})` : undefined;
/** A port list's own checks say which field and what it takes (the union's error sees only the union). */
const badPorts = () => `sandbox.loopback_ports is invalid: it takes ${POLICY_FIELDS.loopback_ports}`;
const policyFields = z
  .object({
    write: z.array(path),
    read: z.union([z.literal("all"), z.array(path)]).optional(),
    network: z.enum(NETWORK_MODES),
    loopback_ports: z.array(z.number({ error: badPorts }).int({ error: badPorts }).min(1, { error: badPorts }).max(65535, { error: badPorts }), { error: badPorts }).max(MAX_LOOPBACK_PORTS, { error: badPorts }).optional(),
    env: z.literal("clean").optional(),
    unix_sockets: z.literal("allow").optional(),
  })
  .strict();

/** What each field of a policy takes, for an error that names the field. */
const POLICY_FIELDS: Record<string, string> = {
  write: 'a list of paths the program may write (required; [] for none; relative ones are taken from cwd), e.g. ["/path/to/project"]',
  read: '"all" or a list of paths (optional; default "all")',
  network: `one of ${NETWORK_MODES.join(", ")} (required)`,
  loopback_ports: `a list of at most ${MAX_LOOPBACK_PORTS} TCP port numbers (1-65535) of this host's loopback the program may reach, with network "outside" (optional), e.g. [5432]`,
  env: '"clean" (optional)',
  unix_sockets: '"allow" (optional)',
};

/**
 * A policy object that does not parse names the field at fault and what it takes (zod's own
 * text for the union says only "Invalid input").
 */
function policyProblem(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const issue = policyFields.safeParse(input).error?.issues[0];
  if (!issue) return undefined;
  const fields = "a policy is {write, read?, network, loopback_ports?, env?, unix_sockets?}";
  if (issue.code === "unrecognized_keys") return `unknown sandbox field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}: ${fields} (or a preset: ${SANDBOX_PRESETS.join(", ")})`;
  const field = String(issue.path[0] ?? "");
  const takes = POLICY_FIELDS[field];
  if (!takes) return undefined;
  const missing = (input as Record<string, unknown>)[field] === undefined;
  return `sandbox.${field} ${missing ? "is missing" : "is invalid"}: it takes ${takes}; ${fields}`;
}

export const sandboxOption = z.union([
  z.enum(SANDBOX_PRESETS, { error: (issue) => unknownPreset(issue.input) }),
  policyFields,
], { error: (issue) => unknownPreset(issue.input) ?? policyProblem(issue.input) });
export type SandboxOption = z.infer<typeof sandboxOption>;
/** What a pane is opened with: an option to resolve, or a policy granted before (agent_restore), taken as it was. */
export type SandboxRequest = SandboxOption | { granted: SandboxPolicy };

export class SandboxPolicyError extends Error {
  override name = "SandboxPolicyError";
}

/**
 * Config and cache folders a known program writes to run at all (an agent's login, settings,
 * sessions). The "worktree" preset adds the ones that exist; none is created.
 */
const PROGRAM_DIRS: Record<string, string[]> = {
  claude: [".claude", ".claude.json", ".cache/claude", ".config/claude"],
  codex: [".codex"],
};

export function programDirs(program: string, home: string): string[] {
  const name = basename(program.trim().split(/\s+/)[0] ?? "");
  return (PROGRAM_DIRS[name] ?? []).map((p) => join(home, p)).filter((p) => existsSync(p));
}

/** The option as a full policy for a pane opened in `cwd` running `program`; paths checked now, so a typo opens nothing. */
export function resolvePolicy(option: SandboxRequest, ctx: { cwd: string; home: string; program: string; apiPorts?: number[]; programHome?: string }): SandboxPolicy {
  if (typeof option === "object" && "granted" in option) {
    // Never widened by where the pane is now: the same paths, which must still exist.
    for (const p of option.granted.write) if (!existsSync(p)) throw new SandboxPolicyError(`sandbox write path ${JSON.stringify(p)} granted before does not exist any more; nothing was opened`);
    refuseHome(option.granted.write, ctx.home, (path, holds) => `the write path ${path} granted to this pane before ${holds}`, "open it with a new sandbox instead");
    return option.granted;
  }
  if (option === "worktree") {
    refuseHome(
      [ctx.cwd],
      ctx.home,
      (path, holds) => `the "worktree" sandbox would let the pane write its folder ${path}, which ${holds}`,
      "open the pane in a project folder (cwd; without one it opens in the folder termhive was started in), or name the folders it may write (sandbox {\"write\": […]})",
    );
    // An agent given a HOME of its own (env.HOME) keeps its login and sessions there, not in ours.
    return { preset: "worktree", write: [ctx.cwd, ...programDirs(ctx.program, ctx.programHome ?? ctx.home)], read: "all", ...presetNetwork(ctx.apiPorts) };
  }
  if (option === "readonly") return { preset: "readonly", write: [], read: "all", ...presetNetwork(ctx.apiPorts) };
  if (option.loopback_ports !== undefined && option.network !== "outside") {
    throw new SandboxPolicyError(`sandbox.loopback_ports is only for network "outside" (with "${option.network}" ${option.network === "on" ? "every loopback port is reachable" : "none is"}); nothing was opened`);
  }
  const absolute = (p: string) => (p === "~" || p.startsWith("~/") ? join(ctx.home, p.slice(1)) : isAbsolute(p) ? resolve(p) : resolve(ctx.cwd, p));
  const write = option.write.map(absolute);
  refuseHome(write, ctx.home, (path, holds) => `the write path ${path} ${holds}`, "name folders inside it instead (a project folder, \"~/.claude\")");
  for (const p of write) {
    if (!existsSync(p)) throw new SandboxPolicyError(`sandbox write path ${JSON.stringify(p)} does not exist (create it first); nothing was opened`);
  }
  const read = option.read === undefined || option.read === "all" ? "all" : option.read.map(absolute);
  if (read !== "all") {
    for (const p of read) if (!existsSync(p)) throw new SandboxPolicyError(`sandbox read path ${JSON.stringify(p)} does not exist; nothing was opened`);
    if (!statSync(ctx.cwd, { throwIfNoEntry: false }) || ![...read, ...write].some((p) => ctx.cwd === p || ctx.cwd.startsWith(p.endsWith("/") ? p : p + "/"))) {
      throw new SandboxPolicyError(`the session's cwd ${JSON.stringify(ctx.cwd)} is not in the sandbox's read or write paths; nothing was opened`);
    }
  }
  const ports = option.loopback_ports?.length ? { loopback_ports: [...new Set(option.loopback_ports)].sort((a, b) => a - b) } : {};
  return { write, read, network: option.network, ...ports, ...(option.env ? { env: option.env } : {}), ...(option.unix_sockets ? { unix_sockets: option.unix_sockets } : {}) };
}

/**
 * A preset's network: "outside", with the loopback ports of the APIs the pane's environment names
 * for its agent (network.ts apiLoopbackPorts): the caller's own configuration says so.
 */
function presetNetwork(apiPorts: number[] | undefined): Pick<SandboxPolicy, "network" | "loopback_ports"> {
  return { network: "outside", ...(apiPorts?.length ? { loopback_ports: apiPorts.slice(0, MAX_LOOPBACK_PORTS) } : {}) };
}

/**
 * A write path that holds the user's home folder is refused: under it lie files that run code
 * outside the sandbox later (shell rc files, tool and agent settings, language site folders, the
 * config of the tmux a person starts), more than any list can name, and the default termhive home.
 * The refusal is one sentence: which path, why it cannot be given, what to do instead.
 */
function refuseHome(write: string[], home: string, what: (path: string, holds: string) => string, instead: string): void {
  const realHome = realOr(home);
  const holder = write.find((w) => {
    const dir = realOr(w);
    return realHome === dir || realHome.startsWith(dir.endsWith("/") ? dir : dir + "/");
  });
  if (holder === undefined) return;
  throw new SandboxPolicyError(`sandbox refused, nothing was opened: ${homeRefusal(holder, realOr(holder) === realHome, home, what, instead)}`);
}

/** The refusal's words, shared with remote panes (remote-launch.ts): the path, why, what to do. */
export function homeRefusal(holder: string, isHome: boolean, home: string, what: (path: string, holds: string) => string, instead: string, whose = "your"): string {
  const holds = isHome ? `is ${whose} home folder` : `holds ${whose} home folder ${home}`;
  return `${what(holder, holds)}, and files there run code outside the sandbox (shell rc files, tool and agent settings, site folders); ${instead}.`;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** One line for lists: "worktree: write /w/a; network on". */
export function describePolicy(p: SandboxPolicy): string {
  const write = p.write.length ? `write ${p.write.join(", ")}` : "read-only";
  const read = p.read === "all" ? "" : `; read ${p.read.join(", ")}`;
  return `${p.preset ? `${p.preset}: ` : ""}${write}${read}; network ${p.network}${p.loopback_ports?.length ? ` (loopback ${p.loopback_ports.join(", ")})` : ""}${p.env ? "; env clean" : ""}${p.unix_sockets ? "; unix sockets allowed" : ""}`;
}

/** The policy kept in pane metadata, or undefined for a pane without one (or an unreadable value). */
export function parseStoredPolicy(value: string | undefined): SandboxPolicy | undefined {
  if (!value) return undefined;
  try {
    const p = JSON.parse(value) as SandboxPolicy;
    const ports = p.loopback_ports === undefined || (Array.isArray(p.loopback_ports) && p.loopback_ports.every((n) => Number.isInteger(n) && n >= 1 && n <= 65535));
    return Array.isArray(p.write) && (p.read === "all" || Array.isArray(p.read)) && NETWORK_MODES.includes(p.network) && ports ? p : undefined;
  } catch {
    return undefined;
  }
}
