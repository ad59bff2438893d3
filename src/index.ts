// The package's public API: `import { TermhiveClient } from "termhive"`.
export { TermhiveClient, type TermhiveClientOptions, type OutputChunk, type SessionEvent, type WatchStream } from "./grpc/client.js";
export { TermhiveService, type CallContext, type SessionSummary } from "./service/service.js";
export { composeRoot, type ServiceRoot } from "./service/root.js";
export { ToolError } from "./service/errors.js";
export { loadConfig, type TermhiveConfig } from "./config.js";
