// What a session says about itself: its commands, the shell's phase, how a command ended, how
// the pane's program exited, and the metadata a pane carries (session.ts keeps them current).
import type { ShellKind } from "../../shell/integration.js";
import type { SandboxPolicy } from "../../sandbox/policy.js";

/** The bounds a session keeps to (from the configuration). */
export interface SessionLimits {
  transcriptMaxChars: number;
  scrollback: number;
  recordingMaxBytes: number;
}

export interface CommandRecord {
  /** The command line, from the shell integration (OSC 633 E), termhive's own run, or the echo. */
  command: string;
  /** Absolute transcript offset where the command's output starts (just past OSC 133 C). */
  outputStart: number;
  /** Absolute offset where it ends (at OSC 133 D); null while it runs. */
  outputEnd: number | null;
  exitCode: number | null;
  startedAt: number;
  endedAt: number | null;
}

/**
 * Where the integrated shell is: starting (no prompt yet), running a command, drawing its
 * next prompt (D or A seen, B not yet), or at its prompt ready for input (B seen).
 */
export type ShellPhase = "starting" | "running" | "redrawing" | "prompt";

/**
 * How a command's end was seen: its OSC 133 D (with the exit code), or the next prompt's
 * OSC 133 A without a D (the shell was interrupted hard; no exit code).
 */
/** osc133: the shell's D; prompt: a new prompt without D; status-file: the shell's status line, its D lost in a gap. */
export type CommandEndReason = "osc133" | "prompt" | "status-file";

export interface CommandFinished {
  record: CommandRecord;
  exitCode: number | null;
  reason: CommandEndReason;
}

export interface SessionExit {
  status: number | null;
  signal: number | null;
}

export interface SessionMeta {
  id: string;
  name: string;
  created: number;
  /** The program the session was opened with. */
  command: string;
  shell: ShellKind;
  /** The ssh destination of a session on another host; absent for a local one. */
  host?: string;
  /** The sandbox its program runs in (src/sandbox/); absent: the user's full rights. */
  sandbox?: SandboxPolicy;
}
