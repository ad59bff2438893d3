// A thrown error as the gRPC status a unary call or a watch stream ends with (the mapping
// itself is the verb table's: verbs/errors.ts). Its own file: the unary handlers and the watch
// streams both use it, and neither should import the other.
import * as grpc from "@grpc/grpc-js";
import { grpcFailure } from "../verbs/errors.js";
import { CODE_KEY } from "./status.js";

export function replyError(error: unknown): Partial<grpc.StatusObject> {
  const { code, details, toolCode } = grpcFailure(error);
  const metadata = new grpc.Metadata();
  if (toolCode) metadata.set(CODE_KEY, toolCode);
  return { code, details, metadata };
}
