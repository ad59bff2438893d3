// gRPC status codes back into the service's errors: the client rebuilds a ToolError so a caller
// handles a remote error exactly like an in-process one. (Errors → status: verbs/errors.ts.)
import { status as Status, type ServiceError } from "@grpc/grpc-js";
import { ToolError } from "../service/errors.js";

type Code = ToolError["code"];

/** The code travels in metadata too, since busy and dead share FAILED_PRECONDITION. */
export const CODE_KEY = "termhive-code";

const FROM_GRPC: Partial<Record<Status, Code>> = {
  [Status.NOT_FOUND]: "not_found",
  [Status.INVALID_ARGUMENT]: "invalid",
  [Status.FAILED_PRECONDITION]: "busy",
  [Status.PERMISSION_DENIED]: "refused",
  [Status.UNAVAILABLE]: "unavailable",
  [Status.UNIMPLEMENTED]: "unsupported",
};

const CODES = new Set<string>(Object.values(FROM_GRPC).concat("dead"));

/** A gRPC error as a ToolError when it carries a service error code; otherwise unchanged. */
export function fromGrpcError(error: ServiceError): Error {
  const sent = error.metadata?.get(CODE_KEY)[0];
  const code = (typeof sent === "string" ? sent : FROM_GRPC[error.code]) as Code | undefined;
  // UNAVAILABLE without our code is grpc-js's own (no server on the socket), not an answer.
  if (code && CODES.has(code) && (error.code !== Status.UNAVAILABLE || sent)) return new ToolError(error.details, code);
  return error;
}
