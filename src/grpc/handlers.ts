// The gRPC door: one unary method per verb of the table (its request validated with the verb's
// schema, its operation, errors as status codes) and the two watch streams. No behaviour lives here.
import * as grpc from "@grpc/grpc-js";
import type { ServiceRoot } from "../service/root.js";
import { VERBS, type AnyVerb, type Services } from "../verbs/index.js";
import { inputSchema } from "../verbs/call.js";
import { requestFromWire, responseToWire } from "./hive-codec.js";
import { replyError } from "./reply-error.js";
import { sandboxFromWire } from "./sandbox-codec.js";
import { watchEvents, watchOutput } from "./watch.js";

type Unary = grpc.handleUnaryCall<Record<string, unknown>, object>;
type Row = Record<string, unknown>;

/** Checks the bearer token of a call (TCP listener only; the unix socket is protected by its mode). */
export type Authorize = (metadata: grpc.Metadata) => boolean;

function clientId(metadata: grpc.Metadata): string {
  const sent = metadata.get("x-termhive-client")[0];
  return typeof sent === "string" && sent.length > 0 && sent.length <= 100 ? `grpc:${sent}` : "grpc";
}

/** The pane the client says it runs in (TermhiveClient sends its own environment's), bounded. */
function callerPaneOf(metadata: grpc.Metadata): { pane?: string } {
  const sent = metadata.get("x-termhive-pane")[0];
  return typeof sent === "string" && sent.length > 0 ? { pane: sent.slice(0, 200) } : {};
}

/** Proto3 decodes an absent repeated field as []; the schemas mean "not given" by undefined. */
function dropEmptyArrays(request: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(request)) if (!(Array.isArray(value) && value.length === 0)) out[key] = value;
  return out;
}

/** Wire request → the verb's input (by its family's conventions), and its result → the wire response (the verb's own). */
function wire(verb: AnyVerb): { decode(request: Row): Row; encode(result: Row): object } {
  const encode = (result: Row) => responseToWire(verb, result);
  if (verb.family === "terminal") return { decode: (request) => sandboxFromWire(dropEmptyArrays(request)), encode };
  return { decode: (request) => requestFromWire(sandboxFromWire(request), verb.input), encode };
}

function unaryHandler(verb: AnyVerb, services: Services, authorize: Authorize | undefined): Unary {
  const { decode, encode } = wire(verb);
  const schema = inputSchema(verb);
  return (call, callback) => {
    if (authorize && !authorize(call.metadata)) {
      callback({ code: grpc.status.UNAUTHENTICATED, details: "unauthenticated" });
      return;
    }
    // A client that cancels (or drops) the call: its waits stop, as an MCP cancel's do.
    const gaveUp = new AbortController();
    call.once("cancelled", () => gaveUp.abort());
    const ctx = { clientId: clientId(call.metadata), ...callerPaneOf(call.metadata), signal: gaveUp.signal };
    Promise.resolve()
      .then(() => verb.run(services, schema.parse(decode(call.request)), ctx))
      .then(
        (result: Row) => callback(null, encode(result)),
        (error: unknown) => callback(replyError(error)),
      );
  };
}

export function buildHandlers(root: ServiceRoot, authorize?: Authorize): grpc.UntypedServiceImplementation {
  // The hive's store still opens on its first call (the crew opens it on first use).
  const services: Services = { terminal: root.terminal, hive: () => root.hive };
  const stream = (watch: typeof watchOutput) => (call: grpc.ServerWritableStream<Row, object>) => {
    if (authorize && !authorize(call.metadata)) return call.destroy({ name: "auth", message: "unauthenticated", code: grpc.status.UNAUTHENTICATED } as grpc.ServiceError);
    void watch(root.terminal, call);
  };
  return {
    ...Object.fromEntries(VERBS.map((verb) => [verb.grpc, unaryHandler(verb, services, authorize)])),
    WatchOutput: stream(watchOutput),
    WatchEvents: stream(watchEvents),
  };
}
