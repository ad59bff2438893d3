// One host: its set-up facts and a TmuxBackend whose control client runs `tmux -C` there through
// its transport (ssh, or a container's exec), on the remote user's termhive socket. A lost connection is made again on the next call,
// with a growing pause after failures so a host that is down is not dialled on every call.
import { TmuxBackend } from "../tmux/tmux-backend.js";
import { tmuxConfig } from "../tmux/config.js";
import { HostError, prepareHost, type HostFacts } from "./bootstrap.js";
import type { HostTransport } from "./transport.js";
import { joinWords } from "../../util/words.js";

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 30_000;
/** The control client must be attached this long after a successful set-up, or the try fails. */
const ATTACH_DEADLINE_MS = 14_000;

export interface RemoteHostOptions {
  transport: HostTransport;
  historyLimit: number;
}

export class RemoteHost {
  facts: HostFacts | null = null;
  backend: TmuxBackend | null = null;
  private connecting: Promise<TmuxBackend> | null = null;
  private failures = 0;
  private retryAt = 0;
  private lastError: Error | null = null;
  /** Set by stop(), cleared by resume(): a late call (a background write) must not dial the host again. */
  private stopped = false;

  constructor(
    readonly host: string,
    private readonly options: RemoteHostOptions,
  ) {}

  get transport(): HostTransport {
    return this.options.transport;
  }

  get connected(): boolean {
    return this.backend?.connected ?? false;
  }

  /** The connected backend, connecting (set-up included) when needed. */
  ensure(): Promise<TmuxBackend> {
    if (this.backend?.connected) return Promise.resolve(this.backend);
    if (this.stopped) return Promise.reject(new HostError(`termhive detached from host ${this.host} (stopped)`));
    if (this.connecting) return this.connecting;
    const wait = this.retryAt - Date.now();
    if (wait > 0 && this.lastError) {
      return Promise.reject(new HostError(`${this.lastError.message} (next try in ${Math.ceil(wait / 1000)} s)`));
    }
    this.connecting = this.connect()
      .then(
        (backend) => {
          this.failures = 0;
          this.lastError = null;
          return backend;
        },
        (error: Error) => {
          this.failures++;
          this.lastError = error;
          this.retryAt = Date.now() + Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.failures - 1));
          throw error;
        },
      )
      .finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<TmuxBackend> {
    const historyLimit = this.options.historyLimit;
    // Set up once per process: the files stay on the host across reconnects.
    this.facts ??= await prepareHost(this.options.transport, tmuxConfig({ historyLimit }));
    const facts = this.facts;
    if (!this.backend) {
      this.backend = new TmuxBackend({
        home: facts.stateDir,
        tmuxPath: facts.tmuxPath,
        historyLimit,
        onHost: {
          socketPath: `${facts.stateDir}/tmux.sock`,
          configPath: `${facts.stateDir}/tmux.conf`,
          launch: (tmuxArgv) => this.options.transport.commandArgv(tmuxArgv),
          describeExit: (code, signal) => this.options.transport.describeExit(code, signal),
        },
      });
    }
    const backend = this.backend;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        backend.start(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            void backend.stop();
            reject(new HostError(`host ${this.host} did not start tmux within ${ATTACH_DEADLINE_MS / 1000} s`));
          }, ATTACH_DEADLINE_MS);
        }),
      ]);
    } catch (error) {
      if (error instanceof HostError) throw error;
      // The facts may be stale (tmux removed, home wiped): the next try sets the host up again.
      this.facts = null;
      this.backend = null;
      throw new HostError(this.options.transport.tmuxFailed((error as Error).message));
    } finally {
      clearTimeout(timer);
    }
    return backend;
  }

  /** What a person types to watch and take over a pane of this host. */
  attachCommand(paneId: string): string {
    // Before the first connection the host's state folder is not known yet: its default.
    const onHost = this.backend?.attachCommand(paneId) ?? joinWords(["tmux", "-S", "~/.local/state/termhive/tmux.sock", "attach", "-t", paneId]);
    return this.options.transport.interactive(onHost);
  }

  resume(): void {
    this.stopped = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.backend?.stop();
  }
}
