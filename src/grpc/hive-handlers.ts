// The gRPC door of the hive: one RPC per MCP hive tool, validated with the same shapes
// (service/hive-schemas.ts) and answered by the same HiveService the MCP tools use.
import * as grpc from "@grpc/grpc-js";
import { z } from "zod";
import { HiveError, HiveStoreError } from "../hive/index.js";
import { ToolError } from "../service/errors.js";
import * as hs from "../service/hive-schemas.js";
import { hiveServiceFor } from "../service/hive-instance.js";
import type { CallContext, TermhiveService } from "../service/service.js";
import { unaryHandler, type Authorize } from "./handlers.js";
import { requestFromWire, responseToWire } from "./hive-codec.js";

type Unary = grpc.handleUnaryCall<Record<string, unknown>, object>;
type Shape = Record<string, z.ZodType>;

/**
 * Hive errors as the service's error codes: an unknown agent/team/layout is not_found, every
 * other refusal (duplicate name, cycle, empty cascade) is bad input; a hive database that
 * cannot be opened is unavailable while the terminal RPCs keep working.
 */
function asToolError(error: unknown): unknown {
  if (error instanceof HiveError) return new ToolError(error.message, error.code === "unknown" ? "not_found" : "invalid");
  if (error instanceof HiveStoreError) return new ToolError(error.message, "unavailable");
  return error;
}

export function buildHiveHandlers(service: TermhiveService, authorize?: Authorize): grpc.UntypedServiceImplementation {
  // Resolved on the first hive call, so the hive store still opens on first use.
  const hive = () => hiveServiceFor(service);

  const unary = <S extends Shape>(method: string, shape: S, op: (input: z.infer<z.ZodObject<S>>, ctx: CallContext) => object | Promise<object>): [string, Unary] => [
    method,
    unaryHandler(shape, op, {
      authorize,
      decode: (request) => requestFromWire(method, request),
      encode: (result) => responseToWire(method, result as Record<string, unknown>),
      mapError: asToolError,
    }),
  ];

  return Object.fromEntries([
    unary("HiveLayout", hs.layoutInput, (i) => hive().layout(i)),
    unary("HiveSplit", hs.splitInput, (i) => hive().split(i)),
    unary("HiveSend", hs.sendInput, (i, ctx) => hive().send(i, ctx)),
    unary("HiveRead", hs.readInput, (i, ctx) => hive().read(i, ctx)),
    unary("HiveMessage", hs.messageInput, (i) => hive().message(i)),
    unary("HiveStatus", hs.statusInput, (i) => hive().setStatus(i)),
    unary("HiveEvents", hs.eventsInput, (i) => hive().events(i)),
    unary("HiveWait", hs.waitInput, (i) => hive().wait(i)),
    unary("HiveWatch", hs.watchInput, (i) => hive().watch(i)),
    unary("HiveMail", hs.mailInput, (i) => hive().mail(i)),
    unary("HiveInbox", hs.inboxInput, (i) => hive().inbox(i)),
    unary("HiveFocus", hs.focusInput, (i) => hive().focus(i)),
    unary("AgentSpawn", hs.agentSpawnInput, (i) => hive().spawn(i)),
    unary("AgentRegister", hs.agentRegisterInput, (i) => hive().registerAgent(i)),
    unary("AgentList", hs.agentListInput, (i) => hive().listAgents(i)),
    unary("AgentRemove", hs.agentRemoveInput, (i) => hive().removeAgent(i)),
    unary("TeamCreate", hs.teamCreateInput, (i) => hive().createTeam(i)),
    unary("TeamAssign", hs.teamAssignInput, (i) => hive().assign(i)),
    unary("TeamList", hs.teamListInput, () => hive().listTeams()),
    unary("TeamRemove", hs.teamRemoveInput, (i) => hive().removeTeam(i)),
  ]);
}
