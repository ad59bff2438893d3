// Agent profiles: how to start an agent program and how to read its state off the screen.
// Built-ins: claude, codex, aider, shell (builtin-profiles.ts). Custom profiles come from a
// JSON file named by TERMHIVE_PROFILES; its format (validated here, errors name the file and
// the profile/rule at fault):
//
//   { "profiles": {
//       "<name>": {
//         "extends": "shell",            // optional: a built-in or another profile in the file;
//                                        //   this profile's rules are tried before the parent's
//         "description": "…",            // optional
//         "command": "mybot --tui",      // optional: default command line for agent_spawn
//         "ready": "^READY>",            // optional regex: the program accepts input
//                                        //   (absent: ready once the screen is quiet quietIdleMs)
//         "quietIdleMs": 1500,           // optional: quiet this long with no rule matching →
//         "quietStatus": "idle",         //   this status (idle | working | waiting_for_input)
//         "rules": [ { "status": "working" | "idle" | "waiting_for_input" | "error" | "starting",
//                      "pattern": "regex", "flags": "i",   // flags: i, s, u (m is always on)
//                      "lines": 10,         // scan only the bottom N non-blank lines (0: whole screen)
//                      "minQuietMs": 0,     // match only once output has been quiet this long
//                      "detail": "…",       // status detail (default: the matching line)
//                      "overridesHooks": false } ],  // a state the hooks never report: it
//                                        //   replaces a hook's status (precedence.ts)
//         "hooks": { "via": "claude-settings" | "codex-hooks" | "codex-notify",   // optional: status from the
//                    "events": [ { "event": "Stop", "matcher": "…", "status": "idle" } ] }
//                                        //   program's own hooks (hooks.ts); inherited by `extends`
//         "checkedVersions": ["2.1.332"], // optional: program versions the rules were checked
//                                        //   against; `termhive doctor` warns about newer ones
//         "sandbox": "worktree",         // optional: the sandbox its agents run in (a preset or a
//                                        //   policy object, as agent_spawn's `sandbox`)
//         "dangerousFlags": ["--yolo", "--sandbox danger-full-access"],
//                                        // optional: flags that turn off the program's own
//                                        //   permission checks; agent_spawn refuses them
//                                        //   without a sandbox unless confirm: true (inherited)
//         "resume": { "command": "{command} --resume {id}",      // optional: how agent_restore
//                     "newId": "{command} --session-id {id}" }   //   resumes conversation {id};
//                                        //   newId: start with an id termhive chooses (a UUID)
//   } } }
//
// A profile in the file with a built-in's name replaces that built-in (extend it to refine it).
// Rule patterns are matched against the chosen lines joined with "\n", with the m flag on.
// The file's patterns (ready and rules) are RE2 syntax, matched in linear time like every
// user regex (util/regex.ts): lookarounds and backreferences are refused when the file loads.
import { profilesPath } from "../../config.js";
import { NAME_RULE, isValidName } from "../../util/names.js";
import { SafeRegex } from "../../util/regex.js";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { HiveError, nameList } from "../store/errors.js";
import { BUILTIN_PROFILES } from "./builtin-profiles.js";
import { HooksSchema, type ProfileHooks } from "./hooks.js";
import { sandboxOption, type SandboxOption } from "../../sandbox/policy.js";

export const DETECTABLE_STATUSES = ["starting", "working", "idle", "waiting_for_input", "error"] as const;
export type DetectableStatus = (typeof DETECTABLE_STATUSES)[number];

const RuleSchema = z
  .object({
    status: z.enum(DETECTABLE_STATUSES),
    pattern: z.string().min(1).max(1000),
    flags: z.string().regex(/^[isu]*$/, "flags may only contain i, s, u").optional(),
    lines: z.number().int().min(0).max(500).optional(),
    minQuietMs: z.number().int().min(0).optional(),
    detail: z.string().max(200).optional(),
    overridesHooks: z.boolean().optional(),
  })
  .strict();

/** A command-line template naming the conversation: {command} (the agent's command) and {id}. */
const resumeTemplate = z.string().min(1).max(1000).refine((t) => t.includes("{id}"), "a resume template must contain {id}");

const ResumeSchema = z.object({ command: resumeTemplate, newId: resumeTemplate.optional() }).strict();
export type ProfileResume = z.infer<typeof ResumeSchema>;

const ProfileSchema = z
  .object({
    extends: z.string().optional(),
    description: z.string().optional(),
    command: z.string().optional(),
    ready: z.string().min(1).max(1000).optional(),
    quietIdleMs: z.number().int().min(0).optional(),
    quietStatus: z.enum(["idle", "working", "waiting_for_input"]).optional(),
    rules: z.array(RuleSchema).optional(),
    hooks: HooksSchema.optional(),
    checkedVersions: z.array(z.string().regex(/^\d+(?:\.\d+)*$/, "a version: digits and dots")).optional(),
    sandbox: sandboxOption.optional(),
    dangerousFlags: z.array(z.string().trim().min(1).max(200)).optional(),
    resume: ResumeSchema.optional(),
  })
  .strict();

const ProfilesFileSchema = z
  .object({
    profiles: z.record(z.string().refine(isValidName, `invalid profile name: ${NAME_RULE}`), ProfileSchema),
  })
  .strict();

export type ProfileRuleConfig = z.infer<typeof RuleSchema>;
export type ProfileConfig = z.infer<typeof ProfileSchema>;

/**
 * A compiled profile pattern. A custom file's patterns are user regexes and run on the linear
 * engine (SafeRegex, RE2 syntax) like every other user regex; the built-ins are termhive's own
 * JavaScript regexes (V8's linear fallback guards them; `\s` there also matches NBSP, which
 * agent TUIs print).
 */
export interface TextPattern {
  exec(text: string): { index: number } | null;
  test(text: string): boolean;
}

export interface StatusRule {
  status: DetectableStatus;
  pattern: TextPattern;
  /** Bottom N non-blank lines to scan; 0 = the whole screen. */
  lines: number;
  minQuietMs: number;
  detail: string | null;
  /** A transition the program's hooks do not report (e.g. Claude interrupted: no Stop hook): it replaces a hook status. */
  overridesHooks: boolean;
}

export interface AgentProfile {
  name: string;
  description: string;
  /** Default command line for spawning this agent ("" for the shell itself). */
  command: string;
  ready: TextPattern | null;
  quietIdleMs: number;
  quietStatus: "idle" | "working" | "waiting_for_input";
  rules: StatusRule[];
  /** The program's own hooks that report status (agent_spawn passes them to it), or null. */
  hooks: ProfileHooks | null;
  /** The program versions this profile was checked against (newest last); [] when unknown. */
  checkedVersions: string[];
  /** The sandbox its agents run in when agent_spawn names none; null: none (TERMHIVE_SANDBOX may still apply). */
  sandbox: SandboxOption | null;
  /** Flags (one or more words each) that turn off the program's own permission checks. */
  dangerousFlags: string[];
  /** How agent_restore resumes the program's conversation (and starts one with a chosen id), or null: it cannot. */
  resume: ProfileResume | null;
  builtin: boolean;
}

const DEFAULT_QUIET_IDLE_MS = 1500;

function compile(where: string, pattern: string, flags = "", fromUser: boolean): TextPattern {
  const withM = flags.includes("m") ? flags : flags + "m";
  try {
    return fromUser ? new SafeRegex(pattern, "profile", withM) : new RegExp(pattern, withM);
  } catch (err) {
    throw new HiveError("invalid", `${where}: invalid pattern /${pattern}/: ${(err as Error).message}`);
  }
}

/** Turns validated configs into profiles, resolving `extends` (unknown parent or a cycle is an error). */
function build(configs: Record<string, ProfileConfig>, builtinNames: ReadonlySet<string>, where: string, userNames: ReadonlySet<string> = new Set()): Map<string, AgentProfile> {
  const out = new Map<string, AgentProfile>();
  const visiting: string[] = [];
  const resolve = (name: string): AgentProfile => {
    const done = out.get(name);
    if (done) return done;
    const config = configs[name];
    if (!config) throw new HiveError("unknown", `${where}: unknown profile '${name}'; valid profiles: ${nameList(Object.keys(configs))}`);
    if (visiting.includes(name)) {
      throw new HiveError("cycle", `${where}: profile 'extends' cycle: ${[...visiting.slice(visiting.indexOf(name)), name].join(" → ")}`);
    }
    visiting.push(name);
    const parent = config.extends !== undefined ? resolve(config.extends) : undefined;
    visiting.pop();
    const own = (config.rules ?? []).map((r, i) => ({
      status: r.status,
      pattern: compile(`${where}: profile '${name}' rule ${i + 1}`, r.pattern, r.flags, userNames.has(name)),
      lines: r.lines ?? 0,
      minQuietMs: r.minQuietMs ?? 0,
      detail: r.detail ?? null,
      overridesHooks: r.overridesHooks ?? false,
    }));
    const profile: AgentProfile = {
      name,
      description: config.description ?? parent?.description ?? name,
      command: config.command ?? parent?.command ?? "",
      ready: config.ready !== undefined ? compile(`${where}: profile '${name}' ready`, config.ready, "", userNames.has(name)) : (parent?.ready ?? null),
      quietIdleMs: config.quietIdleMs ?? parent?.quietIdleMs ?? DEFAULT_QUIET_IDLE_MS,
      quietStatus: config.quietStatus ?? parent?.quietStatus ?? "idle",
      rules: [...own, ...(parent?.rules ?? [])],
      hooks: config.hooks ?? parent?.hooks ?? null,
      checkedVersions: config.checkedVersions ?? parent?.checkedVersions ?? [],
      sandbox: config.sandbox ?? parent?.sandbox ?? null,
      dangerousFlags: config.dangerousFlags ?? parent?.dangerousFlags ?? [],
      resume: config.resume ?? parent?.resume ?? null,
      builtin: builtinNames.has(name),
    };
    out.set(name, profile);
    return profile;
  };
  for (const name of Object.keys(configs)) resolve(name);
  return out;
}

/** The profiles termhive knows: built-ins plus those of a custom file. */
export class ProfileRegistry {
  private readonly profiles: Map<string, AgentProfile>;

  constructor(custom: Record<string, ProfileConfig> = {}, source = "profiles") {
    const builtinNames = new Set(Object.keys(BUILTIN_PROFILES));
    const builtins = build({ ...BUILTIN_PROFILES }, builtinNames, "built-in profiles");
    if (Object.keys(custom).length === 0) {
      this.profiles = builtins;
      return;
    }
    // A custom profile may extend a built-in of the same name it replaces ("claude" extends
    // "claude"): give the file's entries a scope where the original built-ins stay reachable.
    const merged: Record<string, ProfileConfig> = {};
    for (const [name, config] of Object.entries(BUILTIN_PROFILES)) merged[`builtin:${name}`] = config;
    for (const [name, config] of Object.entries(custom)) {
      const ext = config.extends;
      const selfExtend = ext === name && builtinNames.has(name);
      const extendsBuiltin = ext !== undefined && !(ext in custom) && builtinNames.has(ext);
      merged[name] = selfExtend || extendsBuiltin ? { ...config, extends: `builtin:${ext}` } : config;
    }
    for (const name of builtinNames) if (!(name in custom)) merged[name] = BUILTIN_PROFILES[name]!;
    const built = build(merged, builtinNames, source, new Set(Object.keys(custom)));
    this.profiles = new Map(
      [...built].filter(([name]) => !name.startsWith("builtin:")).map(([name, p]) => [name, { ...p, builtin: builtinNames.has(name) && !(name in custom) }]),
    );
  }

  names(): string[] {
    return [...this.profiles.keys()].sort();
  }

  find(name: string): AgentProfile | undefined {
    return this.profiles.get(name);
  }

  get(name: string): AgentProfile {
    const profile = this.profiles.get(name);
    if (!profile) throw new HiveError("unknown", `unknown profile '${name}'; valid profiles: ${nameList(this.names())}`);
    return profile;
  }
}

/** Validates the parsed contents of a profiles file; `source` names the file in errors. */
export function parseProfilesConfig(json: unknown, source = "profiles"): Record<string, ProfileConfig> {
  const parsed = ProfilesFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`).join("; ");
    throw new HiveError("invalid", `${source}: invalid profiles file: ${issues}`);
  }
  return parsed.data.profiles;
}

/** Built-ins plus the file named by TERMHIVE_PROFILES (if set). A bad file is an error, not ignored. */
export function loadProfiles(env: NodeJS.ProcessEnv = process.env): ProfileRegistry {
  return profilesFrom(profilesPath(env));
}

/** Built-ins plus the profiles file config.ts names (TERMHIVE_PROFILES), if any. */
export function profilesFrom(path: string | null): ProfileRegistry {
  if (!path) return new ProfileRegistry();
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new HiveError("invalid", `TERMHIVE_PROFILES=${path}: cannot read the file: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HiveError("invalid", `TERMHIVE_PROFILES=${path}: not valid JSON: ${(err as Error).message}`);
  }
  return new ProfileRegistry(parseProfilesConfig(json, path), path);
}
