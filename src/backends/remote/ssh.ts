// The ssh command line for one host: the user's TERMHIVE_SSH words first (so their -o options
// win: ssh takes the first value of each), then what termhive needs from a connection.

/** Seconds ssh may take to reach a host before it gives up (the caller's deadline is 15 s). */
export const CONNECT_TIMEOUT_S = 10;

/**
 * -T: no remote tty (tmux control mode and the bootstrap talk over plain pipes, even when the
 * user's config says RequestTTY). BatchMode: never prompt (nobody can answer). ServerAlive: a
 * connection that went silent (laptop asleep, network gone, a frozen host) is noticed within
 * 30 s (5 unanswered probes 5 s apart; 10 × 3 took up to 40 s), not hours.
 */
export function sshArgv(ssh: readonly string[], host: string, remoteCommand: string): string[] {
  return [
    ...ssh,
    "-T",
    "-o", "BatchMode=yes",
    "-o", `ConnectTimeout=${CONNECT_TIMEOUT_S}`,
    "-o", "ServerAliveInterval=5",
    "-o", "ServerAliveCountMax=5",
    "--", host, remoteCommand,
  ];
}
