// The gRPC door: each RPC validates its request with the service's zod schema and calls the
// service. No behaviour lives here.
import * as grpc from "@grpc/grpc-js";
import { z } from "zod";
import * as schemas from "../service/schemas.js";
import type { CallContext, TermhiveService } from "../service/service.js";
import { CODE_KEY, toGrpcError } from "./status.js";
import { watchEvents, watchOutput } from "./watch.js";

type Unary = grpc.handleUnaryCall<Record<string, unknown>, object>;

/** Checks the bearer token of a call (TCP listener only; the unix socket is protected by its mode). */
export type Authorize = (metadata: grpc.Metadata) => boolean;

export function replyError(error: unknown): Partial<grpc.StatusObject> {
  const { code, details, toolCode } = toGrpcError(error);
  const metadata = new grpc.Metadata();
  if (toolCode) metadata.set(CODE_KEY, toolCode);
  return { code, details, metadata };
}

function clientId(metadata: grpc.Metadata): string {
  const sent = metadata.get("x-termhive-client")[0];
  return typeof sent === "string" && sent.length > 0 && sent.length <= 100 ? `grpc:${sent}` : "grpc";
}

/** Proto3 decodes an absent repeated field as []; the schemas mean "not given" by undefined. */
function dropEmptyArrays(request: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) if (!(Array.isArray(value) && value.length === 0)) out[key] = value;
  return out;
}

type Shape = Record<string, z.ZodType>;

export interface UnaryOptions {
  authorize?: Authorize;
  /** Wire request → the shape's input (proto3 conventions differ per service). */
  decode?: (request: Record<string, unknown>) => Record<string, unknown>;
  /** The operation's result → the wire response. */
  encode?: (result: object) => object;
  /** An operation's own error → the service's errors (ToolError), before the status mapping. */
  mapError?: (error: unknown) => unknown;
}

/**
 * One unary RPC: the token (TCP), the request validated with the service's zod shape, the
 * operation, and errors as status codes. Every unary RPC of every gRPC service goes through here.
 */
export function unaryHandler<S extends Shape>(
  shape: S,
  op: (input: z.infer<z.ZodObject<S>>, ctx: CallContext) => object | Promise<object>,
  options: UnaryOptions = {},
): Unary {
  const { authorize, decode = (request) => request, encode = (result) => result, mapError = (error) => error } = options;
  // Built once per RPC: a schema made per call costs ~0.2 ms (zod compiles a parser for each new one).
  const schema = z.object(shape);
  return (call, callback) => {
    if (authorize && !authorize(call.metadata)) {
      callback({ code: grpc.status.UNAUTHENTICATED, details: "unauthenticated" });
      return;
    }
    const ctx = { clientId: clientId(call.metadata) };
    Promise.resolve()
      .then(() => op(schema.parse(decode(call.request)), ctx))
      .then(
        (result) => callback(null, encode(result)),
        (error: unknown) => callback(replyError(mapError(error))),
      );
  };
}

export function buildHandlers(service: TermhiveService, authorize?: Authorize): grpc.UntypedServiceImplementation {
  const unary = <S extends Shape>(shape: S, op: (input: z.infer<z.ZodObject<S>>, ctx: CallContext) => Promise<object>): Unary =>
    unaryHandler(shape, op, { authorize, decode: dropEmptyArrays });

  return {
    Open: unary(schemas.openInput, (i) => service.open(i)),
    Run: unary(schemas.runInput, (i, ctx) => service.run(i, ctx)),
    Send: unary(schemas.sendInput, (i, ctx) => service.send(i, ctx)),
    Read: unary(schemas.readInput, (i, ctx) => service.read(i, ctx)),
    Wait: unary(schemas.waitInput, (i, ctx) => service.wait(i, ctx)),
    List: unary(schemas.listInput, () => service.list()),
    Close: unary(schemas.closeInput, (i) => service.close(i)),
    Resize: unary(schemas.resizeInput, (i) => service.resize(i)),
    WatchOutput: (call: grpc.ServerWritableStream<Record<string, unknown>, object>) => {
      if (authorize && !authorize(call.metadata)) return call.destroy({ name: "auth", message: "unauthenticated", code: grpc.status.UNAUTHENTICATED } as grpc.ServiceError);
      void watchOutput(service, call);
    },
    WatchEvents: (call: grpc.ServerWritableStream<Record<string, unknown>, object>) => {
      if (authorize && !authorize(call.metadata)) return call.destroy({ name: "auth", message: "unauthenticated", code: grpc.status.UNAUTHENTICATED } as grpc.ServiceError);
      void watchEvents(service, call);
    },
  };
}
