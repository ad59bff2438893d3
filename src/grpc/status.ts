// ToolError codes → gRPC status codes, and back (the client rebuilds a ToolError so a
// caller handles a remote error exactly like an in-process one).
import { status as Status, type ServiceError } from "@grpc/grpc-js";
import { ZodError } from "zod";
import { ToolError } from "../service/errors.js";

type Code = ToolError["code"];

const TO_GRPC: Record<Code, Status> = {
  not_found: Status.NOT_FOUND,
  invalid: Status.INVALID_ARGUMENT,
  busy: Status.FAILED_PRECONDITION,
  dead: Status.FAILED_PRECONDITION,
  refused: Status.PERMISSION_DENIED,
  unavailable: Status.UNAVAILABLE,
  unsupported: Status.UNIMPLEMENTED,
};

/** The code travels in metadata too, since busy and dead share FAILED_PRECONDITION. */
export const CODE_KEY = "termhive-code";

export function toGrpcError(error: unknown): { code: Status; details: string; toolCode?: Code } {
  if (error instanceof ToolError) return { code: TO_GRPC[error.code], details: error.message, toolCode: error.code };
  if (error instanceof ZodError) {
    const details = error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
    return { code: Status.INVALID_ARGUMENT, details, toolCode: "invalid" };
  }
  return { code: Status.INTERNAL, details: `internal error: ${(error as Error)?.message ?? String(error)}` };
}

const FROM_GRPC: Partial<Record<Status, Code>> = {
  [Status.NOT_FOUND]: "not_found",
  [Status.INVALID_ARGUMENT]: "invalid",
  [Status.FAILED_PRECONDITION]: "busy",
  [Status.PERMISSION_DENIED]: "refused",
  [Status.UNAVAILABLE]: "unavailable",
  [Status.UNIMPLEMENTED]: "unsupported",
};

/** A gRPC error as a ToolError when it carries a service error code; otherwise unchanged. */
export function fromGrpcError(error: ServiceError): Error {
  const sent = error.metadata?.get(CODE_KEY)[0];
  const code = (typeof sent === "string" ? sent : FROM_GRPC[error.code]) as Code | undefined;
  if (code && code in TO_GRPC && error.code !== Status.UNAVAILABLE) return new ToolError(error.details, code);
  if (code === "unavailable" && sent) return new ToolError(error.details, code);
  return error;
}
