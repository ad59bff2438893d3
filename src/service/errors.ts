// ToolError lives with the other leaves in util/ (terminal/ throws it too, and may not import
// service/); re-exported here for the doors that import it from the service.
export { ToolError } from "../util/tool-error.js";
