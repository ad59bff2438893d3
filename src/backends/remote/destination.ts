// What `host` may be: an ssh destination as OpenSSH takes it (an alias from the ssh config,
// user@host, ssh://user@host:port), handed to ssh after `--` so it is never read as an option.

export class DestinationError extends Error {
  override name = "DestinationError";
}

const URI = /^ssh:\/\/(?:[^@/\s]+@)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::\d{1,5})?\/?$/;
const PLAIN = /^(?:[A-Za-z0-9._+-]+@)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._:-]+)$/;

/** The destination, trimmed and checked against the allow-list; anything else a clear error. */
export function checkDestination(raw: string, allowed: readonly string[] | null): string {
  const host = raw.trim();
  if (!host) throw new DestinationError("host is empty: give an ssh destination (an ssh config alias, user@host or ssh://user@host:port)");
  if (host.startsWith("-") || !(URI.test(host) || PLAIN.test(host))) {
    throw new DestinationError(`host ${JSON.stringify(raw)} is not an ssh destination: use an ssh config alias, user@host or ssh://user@host:port`);
  }
  if (allowed && !allowed.includes(host)) {
    throw new DestinationError(`host ${JSON.stringify(host)} is not in TERMHIVE_HOSTS (${allowed.join(", ")}); add it there to allow sessions on it`);
  }
  return host;
}
