// TermhiveClient: the typed gRPC client (`import { TermhiveClient } from "termhive"`).
// It takes the same inputs and returns the same results as TermhiveService, so code can
// move between in-process and remote use without change; errors come back as ToolError.
import * as grpc from "@grpc/grpc-js";
import type { z } from "zod";
import { VERBS, type VERB } from "../verbs/index.js";
import { defaultHome } from "../util/paths.js";
import { loadTermhiveProto } from "./proto.js";
import { grpcSocketPath } from "./socket.js";
import { fromGrpcError } from "./status.js";
import { requestToWire, responseFromWire } from "./hive-codec.js";
import { sandboxToWire } from "./sandbox-codec.js";

type Verbs = typeof VERB;
/** A verb's input as a caller writes it (defaults optional). */
type In<K extends keyof Verbs> = z.input<z.ZodObject<Verbs[K]["input"]>>;
/** A verb's result, as the service returns it. */
type Out<K extends keyof Verbs> = Awaited<ReturnType<Verbs[K]["run"]>>;

export interface TermhiveClientOptions {
  /** `host:port` of a TCP listener; default: the unix socket of TERMHIVE_HOME. */
  address?: string;
  /** Unix socket path; default `$TERMHIVE_HOME/grpc.sock`. */
  socketPath?: string;
  /** Bearer token (TCP only). */
  token?: string;
  /** Names this client: read cursors ("new since my last read") are per client. */
  clientName?: string;
  /** The pane this client runs in (util/caller-pane.ts), for the server's audit log. */
  pane?: string;
}

export interface OutputChunk {
  session: string;
  name: string;
  /** Raw bytes; decode with a streaming TextDecoder, a chunk may split a character. */
  data: Buffer;
  transcript_end: number;
}

export interface SessionEvent {
  kind: "opened" | "command-start" | "command-end" | "exit" | "closed";
  session: string;
  name: string;
  time_ms: number;
  exit_code?: number;
  command?: string;
}

/** A server stream: iterate it with `for await`; cancel() ends it. */
export type WatchStream<T> = AsyncIterable<T> & { cancel(): void };

type Row = Record<string, unknown>;

/**
 * A verb's client method name: the terminal verbs drop their family (terminalRun → run), the
 * hive verbs keep their table name (hiveLayout). The rpc is the same name capitalised (Run,
 * HiveLayout): the proto's rpcs are checked against the verb table (test/unit/verbs/table.test.ts),
 * so deriving the methods from the proto's service derives them from the table.
 */
type MethodName<K extends string> = K extends `terminal${infer Rest}` ? Uncapitalize<Rest> : K;
/** A method's input may be left out when the verb has no required field. */
type Method<K extends keyof Verbs> = {} extends In<K> ? (input?: In<K>) => Promise<Out<K>> : (input: In<K>) => Promise<Out<K>>;
/** One method per verb of the table, typed from its schema and operation. */
export type VerbMethods = { [K in keyof Verbs as MethodName<K & string>]: Method<K> };

const STREAMS = new Set(["WatchOutput", "WatchEvents"]);
const VERB_OF_RPC = new Map(VERBS.map((verb) => [verb.grpc, verb]));
const methodOf = (rpc: string) => rpc.charAt(0).toLowerCase() + rpc.slice(1);

// The verb methods are added to the prototype below (one per unary rpc); this declaration gives them their types.
export interface TermhiveClient extends VerbMethods {}

export class TermhiveClient {
  private readonly stub: grpc.Client & Record<string, Function>;
  private readonly metadata = new grpc.Metadata();

  constructor(options: TermhiveClientOptions = {}) {
    const { Client } = loadTermhiveProto("client");
    const target = options.address ?? `unix:${options.socketPath ?? grpcSocketPath(defaultHome())}`;
    this.stub = new Client(target, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 64 * 1024 * 1024,
      "grpc.max_send_message_length": 64 * 1024 * 1024,
    }) as grpc.Client & Record<string, Function>;
    if (options.token) this.metadata.set("authorization", `Bearer ${options.token}`);
    if (options.clientName) this.metadata.set("x-termhive-client", options.clientName);
    if (options.pane) this.metadata.set("x-termhive-pane", options.pane);
  }

  /** Resolves once connected; rejects after `timeoutMs`. */
  ready(timeoutMs = 2000): Promise<void> {
    return new Promise((resolve, reject) =>
      this.stub.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(error) : resolve())),
    );
  }

  private call<R>(method: string, request: object): Promise<R> {
    return new Promise((resolve, reject) => {
      this.stub[method]!(request, this.metadata, (error: grpc.ServiceError | null, response: R) =>
        error ? reject(fromGrpcError(error)) : resolve(response),
      );
    });
  }

  /** A verb's call: its input as the proto message, the response back in the service's shape. */
  private async verb(rpc: string, input: object = {}): Promise<Row> {
    return responseFromWire(VERB_OF_RPC.get(rpc)!, await this.call<Row>(rpc, sandboxToWire(requestToWire(input as Row))));
  }

  /** Live output of the named sessions (all when none), optionally after what they still hold. */
  watchOutput(request: { sessions?: string[]; replay?: boolean } = {}): WatchStream<OutputChunk> {
    return this.stream("WatchOutput", request);
  }

  watchEvents(request: { sessions?: string[] } = {}): WatchStream<SessionEvent> {
    return this.stream("WatchEvents", request);
  }

  private stream<T>(method: string, request: object): WatchStream<T> {
    const call = this.stub[method]!(request, this.metadata) as grpc.ClientReadableStream<T>;
    return {
      cancel: () => call.cancel(),
      async *[Symbol.asyncIterator]() {
        try {
          for await (const item of call) yield item as T;
        } catch (error) {
          const e = error as grpc.ServiceError;
          if (e.code === grpc.status.CANCELLED) return;
          throw fromGrpcError(e);
        }
      },
    };
  }

  closeConnection(): void {
    // Not this.stub.close(): the generated stub aliases the Close RPC as `close`.
    grpc.Client.prototype.close.call(this.stub);
  }
}

for (const rpc of Object.keys(loadTermhiveProto("client").service)) {
  if (STREAMS.has(rpc)) continue;
  Object.defineProperty(TermhiveClient.prototype, methodOf(rpc), {
    value: function (this: TermhiveClient, input?: object) {
      return (this as unknown as { verb(rpc: string, input?: object): Promise<Row> }).verb(rpc, input);
    },
    writable: true,
    configurable: true,
  });
}
