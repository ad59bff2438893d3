// Errors a caller can act on. The MCP/gRPC/CLI doors turn them into error results verbatim.

export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: "not_found" | "invalid" | "busy" | "dead" | "unavailable" | "refused" | "unsupported" = "invalid",
  ) {
    super(message);
    this.name = "ToolError";
  }
}
