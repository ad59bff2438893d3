// What `host` may be: an ssh destination as OpenSSH takes it (an alias from the ssh config,
// user@host, ssh://user@host:port), handed to ssh after `--` so it is never read as an option;
// or a running container, docker://NAME or podman://NAME, reached with the engine's `exec`.

export class DestinationError extends Error {
  override name = "DestinationError";
}

export type HostAddress =
  | { kind: "ssh"; host: string }
  | { kind: "container"; host: string; engine: "docker" | "podman"; name: string };

const URI = /^ssh:\/\/(?:[^@/\s]+@)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::\d{1,5})?\/?$/;
const PLAIN = /^(?:[A-Za-z0-9._+-]+@)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._:-]+)$/;
const CONTAINER = /^(docker|podman):\/\/(.*)$/;
/** A container's name or id as docker and podman make them: [a-zA-Z0-9][a-zA-Z0-9_.-]*. */
const CONTAINER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

const KINDS = "an ssh config alias, user@host, ssh://user@host:port, docker://CONTAINER or podman://CONTAINER";

/** What kind of host a checked destination is. */
export function hostAddress(host: string): HostAddress {
  const container = CONTAINER.exec(host);
  if (!container) return { kind: "ssh", host };
  const engine = container[1] as "docker" | "podman";
  const name = container[2]!;
  if (!CONTAINER_NAME.test(name)) {
    throw new DestinationError(
      `host ${JSON.stringify(host)} is not a container: ${engine}://NAME takes a running container's name or id (letters, digits, "_", "." and "-", starting with a letter or digit)`,
    );
  }
  return { kind: "container", host, engine, name };
}

/** The destination, trimmed and checked against the allow-list; anything else a clear error. */
export function checkDestination(raw: string, allowed: readonly string[] | null): string {
  const host = raw.trim();
  if (!host) throw new DestinationError(`host is empty: give ${KINDS}`);
  if (CONTAINER.test(host)) hostAddress(host);
  else if (host.startsWith("-") || !(URI.test(host) || PLAIN.test(host))) {
    throw new DestinationError(`host ${JSON.stringify(raw)} is not an ssh destination: use ${KINDS}`);
  }
  if (allowed && !allowed.includes(host)) {
    throw new DestinationError(`host ${JSON.stringify(host)} is not in TERMHIVE_HOSTS (${allowed.join(", ")}); add it there to allow sessions on it`);
  }
  return host;
}
