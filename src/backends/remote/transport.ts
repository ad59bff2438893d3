// How termhive reaches a host's /bin/sh and tmux: over ssh (a machine) or with the container
// engine's `exec -i` (a running container). Everything else about a host (the set-up script,
// its tmux server and control client, files read through that tmux) is the same for both, so
// the difference lives here and nowhere else.
import { joinWords } from "../../util/words.js";
import type { HostAddress } from "./destination.js";
import { sshArgv } from "./ssh.js";

export interface HostTransport {
  /** The host as the user wrote it ("build-box", "docker://web"). */
  readonly host: string;
  /** The link in words for messages: "the ssh connection to build-box". */
  readonly link: string;
  /** Runs argv on the host with pipes for stdin, stdout and stderr. */
  commandArgv(argv: readonly string[]): string[];
  /** What a person types to run this command line on the host in their own terminal. */
  interactive(commandLine: string): string;
  /** Why the link's program ended with this status (a control client's end). */
  describeExit(code: number | null, signal: string | null): string;
  /** A failure to reach the host, in the link program's own words (`said`). */
  unreachable(said: string): string;
  /** The host's tmux could not be started or reached through the link (its own words: `said`). */
  tmuxFailed(said: string): string;
  /** Hint when the link program itself cannot run. */
  readonly missingProgram: string;
}

export function transportFor(address: HostAddress, ssh: readonly string[]): HostTransport {
  return address.kind === "ssh" ? sshTransport(address.host, ssh) : containerTransport(address.host, address.engine, address.name);
}

function sshTransport(host: string, ssh: readonly string[]): HostTransport {
  return {
    host,
    link: `the ssh connection to ${host}`,
    // ssh hands the remote command to the login shell: `exec` so the shell gives way to it.
    commandArgv: (argv) => sshArgv(ssh, host, argv.length === 1 && argv[0] === "/bin/sh" ? "/bin/sh" : `exec ${joinWords([...argv])}`),
    interactive: (commandLine) => joinWords([...ssh, "-t", host, commandLine]),
    // ssh exits 255 on its own errors and prints nothing when its keepalives go unanswered
    // (a frozen host): the answer names the host, not a local tmux.
    describeExit: (code, signal) =>
      code === 255
        ? `the ssh link to host ${host} dropped: the host stopped answering or the network went away (ssh exited 255)`
        : `tmux on host ${host} ended (${signal ?? `exit ${code}`})`,
    unreachable: (said) => `cannot reach host ${host}: ${said}`,
    tmuxFailed: (said) => `cannot start tmux on host ${host}: ${said}`,
    missingProgram: "set TERMHIVE_SSH to your ssh command",
  };
}

/**
 * `docker exec -i NAME argv…` (podman takes the same words). The argv goes to the engine as
 * separate words, never through a shell, and NAME was checked to start with a letter or digit,
 * so it cannot be read as an option.
 */
function containerTransport(host: string, engine: "docker" | "podman", name: string): HostTransport {
  const unreachable = (said: string) => `cannot reach container ${host}: ${said} (termhive needs it running: ${engine} ps; ${engine} start ${name})`;
  return {
    host,
    link: `the ${engine} exec link to container ${name}`,
    commandArgv: (argv) => [engine, "exec", "-i", name, ...argv],
    interactive: (commandLine) => joinWords([engine, "exec", "-it", name, "/bin/sh", "-c", commandLine]),
    // The engine ends the exec when the container stops (137: its processes were killed) or
    // says why it could not run it (docker: 1 or 126/127; podman: 125).
    describeExit: (code, signal) =>
      `tmux in container ${host} ended or the container stopped (${engine} exec ${signal ?? `exited ${code}`})`,
    unreachable,
    // Most often the container stopped since its set-up: the same words as an unreachable one.
    tmuxFailed: unreachable,
    missingProgram: `install the ${engine} CLI, or put it on termhive's PATH`,
  };
}
