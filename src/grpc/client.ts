// TermhiveClient: the typed gRPC client (`import { TermhiveClient } from "termhive"`).
// It takes the same inputs and returns the same results as TermhiveService, so code can
// move between in-process and remote use without change; errors come back as ToolError.
import * as grpc from "@grpc/grpc-js";
import type { z } from "zod";
import type { VERB } from "../verbs/index.js";
import type { SessionSummary } from "../service/service.js";
import { defaultHome } from "../util/paths.js";
import { loadTermhiveProto } from "./proto.js";
import { grpcSocketPath } from "./socket.js";
import { fromGrpcError } from "./status.js";
import { requestToWire, responseFromWire } from "./hive-codec.js";

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

/** Fields that are `T | null` in the service's results: absent on the wire means null. */
function nulls<T>(row: Row, keys: string[]): T {
  for (const key of keys) if (row[key] === undefined) row[key] = null;
  return row as T;
}

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

  async open(input: In<"terminalOpen"> = {}): Promise<Out<"terminalOpen">> {
    return nulls(await this.call<Row>("Open", input), []);
  }
  async run(input: In<"terminalRun">): Promise<Out<"terminalRun">> {
    return nulls(await this.call<Row>("Run", input), ["exit_code"]);
  }
  async send(input: In<"terminalSend">): Promise<Out<"terminalSend">> {
    return this.call("Send", input);
  }
  async read(input: In<"terminalRead">): Promise<Out<"terminalRead">> {
    return this.call("Read", input);
  }
  async wait(input: In<"terminalWait">): Promise<Out<"terminalWait">> {
    return this.call("Wait", input);
  }
  async list(): Promise<Out<"terminalList">> {
    const r = await this.call<{ sessions: Row[] }>("List", {});
    return { sessions: r.sessions.map((s) => nulls<SessionSummary>(s, ["cwd", "running", "last_exit_code"])) };
  }
  async close(input: In<"terminalClose">): Promise<Out<"terminalClose">> {
    return this.call("Close", input);
  }
  async resize(input: In<"terminalResize">): Promise<Out<"terminalResize">> {
    return this.call("Resize", input);
  }

  // The hive: one method per MCP hive tool (hive_layout → hiveLayout), same inputs and results as HiveService.
  private async hive<R>(method: string, input: object): Promise<R> {
    return responseFromWire(method, await this.call<Row>(method, requestToWire(method, input as Row))) as R;
  }
  async hiveLayout(input: In<"hiveLayout"> = {}): Promise<Out<"hiveLayout">> {
    return this.hive("HiveLayout", input);
  }
  async hiveSplit(input: In<"hiveSplit">): Promise<Out<"hiveSplit">> {
    return this.hive("HiveSplit", input);
  }
  async hiveSend(input: In<"hiveSend">): Promise<Out<"hiveSend">> {
    return this.hive("HiveSend", input);
  }
  async hiveRead(input: In<"hiveRead">): Promise<Out<"hiveRead">> {
    return this.hive("HiveRead", input);
  }
  async hiveMessage(input: In<"hiveMessage">): Promise<Out<"hiveMessage">> {
    return this.hive("HiveMessage", input);
  }
  async hiveQueue(input: In<"hiveQueue"> = {}): Promise<Out<"hiveQueue">> {
    return this.hive("HiveQueue", input);
  }
  async hiveStatus(input: In<"hiveStatus">): Promise<Out<"hiveStatus">> {
    return this.hive("HiveStatus", input);
  }
  async hiveEvents(input: In<"hiveEvents"> = {}): Promise<Out<"hiveEvents">> {
    return this.hive("HiveEvents", input);
  }
  async hiveWait(input: In<"hiveWait">): Promise<Out<"hiveWait">> {
    return this.hive("HiveWait", input);
  }
  async hiveWatch(input: In<"hiveWatch">): Promise<Out<"hiveWatch">> {
    return this.hive("HiveWatch", input);
  }
  async hiveMail(input: In<"hiveMail">): Promise<Out<"hiveMail">> {
    return this.hive("HiveMail", input);
  }
  async hiveInbox(input: In<"hiveInbox">): Promise<Out<"hiveInbox">> {
    return this.hive("HiveInbox", input);
  }
  async hiveFocus(input: In<"hiveFocus">): Promise<Out<"hiveFocus">> {
    return this.hive("HiveFocus", input);
  }
  async agentSpawn(input: In<"agentSpawn">): Promise<Out<"agentSpawn">> {
    return this.hive("AgentSpawn", input);
  }
  async agentRegister(input: In<"agentRegister">): Promise<Out<"agentRegister">> {
    return this.hive("AgentRegister", input);
  }
  async agentList(input: In<"agentList"> = {}): Promise<Out<"agentList">> {
    return this.hive("AgentList", input);
  }
  async agentRemove(input: In<"agentRemove">): Promise<Out<"agentRemove">> {
    return this.hive("AgentRemove", input);
  }
  async teamCreate(input: In<"teamCreate">): Promise<Out<"teamCreate">> {
    return this.hive("TeamCreate", input);
  }
  async teamAssign(input: In<"teamAssign">): Promise<Out<"teamAssign">> {
    return this.hive("TeamAssign", input);
  }
  async teamList(): Promise<Out<"teamList">> {
    return this.hive("TeamList", {});
  }
  async teamRemove(input: In<"teamRemove">): Promise<Out<"teamRemove">> {
    return this.hive("TeamRemove", input);
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
