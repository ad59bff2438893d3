// Which MCP protocol eras the stdio door serves (TERMHIVE_MCP_ERA; serve/http.ts applies it to HTTP).
//
// Why: both by default — the SDK's serveStdio picks the era from the connection's opening
// (`initialize` or a claim-less message: 2025-11-25 and older; `server/discover` or a
// request carrying the 2026-07-28 envelope: 2026). A client that misbehaves in one era is
// given the other: `2026` refuses a 2025 opening (the SDK's own `legacy: "reject"`), and
// `2025` answers a 2026 opening as a server of that era would — `server/discover` is a
// method it does not know — so a probing client falls back to `initialize`.
import { PROTOCOL_VERSION_META_KEY, type JSONRPCMessage, type MessageExtraInfo, type Transport } from "@modelcontextprotocol/server";
import type { McpEra } from "../../config.js";
import { LayeredTransport } from "./layered-transport.js";

/** -32601: JSON-RPC's "method not found", what a 2025 server answers to `server/discover`. */
const METHOD_NOT_FOUND = -32601;
/** -32022: the SDK's unsupported-protocol-version code (a request that claims 2026-07-28). */
const UNSUPPORTED_VERSION = -32022;
/** The revisions a 2025-only door names when it refuses a 2026 request. */
const ERA_2025_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** The 2026 revision a request claims in its `_meta` envelope, if any. */
function claimedRevision(message: JSONRPCMessage): string | undefined {
  const params = "params" in message ? (message.params as { _meta?: Record<string, unknown> } | undefined) : undefined;
  const claim = params?._meta?.[PROTOCOL_VERSION_META_KEY];
  return typeof claim === "string" ? claim : undefined;
}

/** A transport that answers 2026-era requests itself and passes everything else through. */
export class Era2025Only extends LayeredTransport {
  protected route(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const claim = claimedRevision(message);
    const modern = "method" in message && (message.method === "server/discover" || (claim !== undefined && claim >= "2026"));
    if (!modern) {
      this.onmessage?.(message, extra);
      return;
    }
    // A notification of the other era is dropped, as a 2025 server drops one it does not know.
    if (!("id" in message) || message.id === undefined) return;
    const error =
      message.method === "server/discover"
        ? { code: METHOD_NOT_FOUND, message: "Method not found (this termhive serves MCP 2025 only: TERMHIVE_MCP_ERA=2025)" }
        : { code: UNSUPPORTED_VERSION, message: `Unsupported protocol version: ${claim} (TERMHIVE_MCP_ERA=2025)`, data: { supported: ERA_2025_VERSIONS, requested: claim } };
    void this.inner.send({ jsonrpc: "2.0", id: message.id, error }).catch((failure: unknown) => this.onerror?.(failure as Error));
  }
}

/** serveStdio's options and the wire it is given, for the configured era. */
export function eraWire(era: McpEra, wire: Transport): { transport: Transport; legacy: "serve" | "reject" } {
  if (era === "2026") return { transport: wire, legacy: "reject" };
  return { transport: era === "2025" ? new Era2025Only(wire) : wire, legacy: "serve" };
}
