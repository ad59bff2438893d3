// A verb is one tool of termhive as every door sees it: the MCP tool, the gRPC method and, where
// it has one, the CLI command. A door is a loop over the table in ./index.ts.
import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type { Option } from "commander";
import type { z } from "zod";
import type { HiveService } from "../service/hive-service.js";
import type { CallContext, TermhiveService } from "../service/service.js";
import type { RelayRequest } from "../sandbox/relay.js";
import type { NullableFields } from "./nullable.js";
import type { WireForm } from "./wire.js";

export type Shape = Record<string, z.ZodType>;
/** A verb's input after validation (defaults applied). */
export type Input<S extends Shape> = z.infer<z.ZodObject<S>>;

/** The terminal operations; the CLI's engine (in-process service or gRPC client) has them too. */
export type TerminalOps = Pick<TermhiveService, "open" | "run" | "send" | "read" | "wait" | "list" | "close" | "resize">;

/** What an operation calls: the terminal service, and the hive (its store opens on first use). */
export interface Services {
  terminal: TerminalOps;
  hive(): HiveService;
}

/**
 * The hive store alone, with no server, tmux, backend or gRPC behind it (cli/pane-hive.ts): what
 * the commands an agent runs in its pane reach (its hooks run them every turn). HiveService has
 * all of it; a verb whose run needs no more declares `run(s: StoreServices, …)`.
 */
export type StoreHive = Pick<HiveService, "mail" | "inbox" | "setStatus">;

export interface StoreServices {
  hive(): StoreHive;
}

/** A commander option: flags, description and an optional parser, or a ready Option (choices, default). */
export type CliOption = readonly [flags: string, description: string, parse?: (value: string) => unknown] | Option;

export interface CliForm<S extends Shape, R> {
  /** The command's name: termhive <command>. */
  command: string;
  /** Its arguments in commander's syntax ("<session>", "[text...]") with their help. */
  args?: readonly (readonly [syntax: string, description: string])[];
  description: string;
  options?: readonly CliOption[];
  /** Shown after the options in --help. */
  help?: string;
  /** The command's arguments (in order) and options → the verb's input (an in-pane command may leave its own agent out: the door fills it). */
  input(args: never, options: Record<string, unknown>): OwnAgentLeftOut<z.input<z.ZodObject<S>>>;
  /** The human text when it differs from the verb's. */
  text?(result: NoInfer<R>): string;
  /** Exit status from the result (default 0). */
  exitCode?(result: NoInfer<R>): number;
  /** The result carries hints and fold markers that name MCP calls: rewrite them for the CLI. */
  speak?: boolean;
  /**
   * A command an agent runs in its own pane (termhive msg/inbox/status): it runs on the hive store
   * alone (cli/pane-verbs.ts), so the verb's run must take StoreServices.
   */
  inPane?: InPaneForm<S, R>;
}

/** The input fields that can name the pane's own agent: the one it acts as or for. */
export type OwnAgentField = "agent" | "from";
type OwnAgentLeftOut<T> = Omit<T, OwnAgentField> & Partial<Pick<T, OwnAgentField & keyof T>>;

export interface InPaneForm<S extends Shape, R> {
  /** The input field that names the pane's own agent when the command does not (TERMHIVE_AGENT, else TERMHIVE_SESSION's agent). */
  ownAgent: OwnAgentField & keyof S;
  /** Its value when the pane has no agent; without one the command fails. */
  otherwise?: string;
  /**
   * In a sandboxed pane the store is out of reach (sandbox/relay.ts): the request the server
   * following the pane applies as the pane's agent (the ownAgent field is not taken from
   * inside), the line printed, and what to write first when stdout is the pane. Absent: refused.
   * paneAgent: the pane's agent as its environment names it (TERMHIVE_AGENT).
   */
  relay?(input: Omit<Input<S>, OwnAgentField>, paneAgent: string | null): { request: RelayRequest; text: string; tty?: string };
  /** Written first when stdout is the pane (hive_status: the status OSC, which a following server sees at once). */
  tty?(input: Input<S>, result: NoInfer<R>): string;
  /** Why the command cannot run from a sandboxed pane (when there is no relay). */
  refusedInSandbox?: string;
}

export interface Verb<S extends Shape = Shape, R extends object = object, N extends StoreServices = Services> {
  /** The MCP tool name (terminal_run); the model sees it. */
  name: string;
  title: string;
  /** Written for a model: what the tool does and when to use it. */
  description: string;
  input: S;
  /** Which wire conventions its gRPC requests follow (see grpc/hive-codec.ts). */
  family: "terminal" | "hive";
  /** N: what it calls; Services, or StoreServices for a verb that runs on the hive store alone. */
  // A property, not a method: its services are then checked strictly (a verb that needs the
  // full Services is not accepted where only StoreServices are given).
  run: (services: N, input: Input<S>, ctx: CallContext) => R | Promise<R>;
  /**
   * MCP hints for clients: read-only tools may run in parallel, destructive ones are asked
   * about. openWorldHint is true only for what runs or types commands (they may reach anything).
   */
  annotations: ToolAnnotations;
  /**
   * How the result reads as text: what a model reads. Every fact of the result is in it
   * (output, exit code, reason, fold calls, hints), compact.
   */
  text(result: NoInfer<R>): string;
  /**
   * Typed fields for programs, declared as the tool's outputSchema and sent as
   * structuredContent. Only for small results: a client such as Claude Code gives its model
   * JSON.stringify(structuredContent) instead of the text, so it must stay as lean as the
   * text and never hold a command's output.
   */
  structured?: { schema: Shape; of(result: NoInfer<R>): Record<string, unknown> };
  /** The rpc of proto/termhive.proto. */
  grpc: string;
  /**
   * What of its result proto3 cannot say directly (open-ended JSON, a oneof, a field the proto
   * keeps beside a reused message), done both ways. Absent: the result is its response as it is.
   */
  wire?: WireForm;
  /** The result's fields that may be null (see ./nullable.ts); defineVerb requires every one. */
  nullable?: NullableFields<NoInfer<R>>;
  cli?: CliForm<S, R>;
}

/** Looks at things, changes nothing: safe to run in parallel and to repeat. */
export const READS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Adds or changes something (types, opens, records) without destroying anything. */
export const WRITES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Setting a value twice is setting it once (resize, status, focus, team membership). */
export const SETS: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Ends or removes something (a session, an agent, a team); removing twice changes nothing more. */
export const REMOVES: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
/** Runs or types what it is given: it may do anything the command does. */
export const RUNS: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/** A verb whose result has fields that may be null must declare them all. */
type DeclaresNullable<R> = {} extends NullableFields<R> ? unknown : { nullable: NullableFields<NoInfer<R>> };

/** Infers a verb's input and result types from its schema and operation. */
export function defineVerb<S extends Shape, R extends object, N extends StoreServices = Services>(verb: Verb<S, R, N> & DeclaresNullable<R>): Verb<S, R, N> {
  return verb;
}

// The table holds verbs of different input and result types; each door treats them alike.
export type AnyVerb = Verb<any, any, any>;
