// A request's sandbox on the wire: `sandbox` (a preset name) or `sandbox_policy` (the explicit
// policy, proto3 having no union of a string and a message). Turned into the verbs' one
// `sandbox` field; zod checks the rest.
import { ToolError } from "../service/errors.js";

type Row = Record<string, any>;

function policyFromWire(p: Row): Row {
  const read: string[] = p.read ?? [];
  return { write: p.write ?? [], read: read.length ? read : "all", network: p.network, ...(p.env ? { env: p.env } : {}), ...(p.unix_sockets ? { unix_sockets: p.unix_sockets } : {}) };
}

/** `row` with sandbox_policy folded into sandbox (itself and its layout panes). */
export function sandboxFromWire(row: Row): Row {
  const out: Row = { ...row };
  if (out.sandbox_policy) {
    if (out.sandbox) throw new ToolError("give sandbox (a preset) or sandbox_policy, not both");
    out.sandbox = policyFromWire(out.sandbox_policy);
  }
  delete out.sandbox_policy;
  if (Array.isArray(out.panes)) out.panes = out.panes.map((p: Row) => sandboxFromWire(p));
  return out;
}

/** The client's side: an object `sandbox` goes as sandbox_policy (itself and its layout panes). */
export function sandboxToWire(row: Row): Row {
  const out: Row = { ...row };
  if (out.sandbox !== undefined && typeof out.sandbox === "object") {
    const p = out.sandbox as Row;
    out.sandbox_policy = { write: p.write ?? [], read: Array.isArray(p.read) ? p.read : [], network: p.network, ...(p.env ? { env: p.env } : {}), ...(p.unix_sockets ? { unix_sockets: p.unix_sockets } : {}) };
    delete out.sandbox;
  }
  if (Array.isArray(out.panes)) out.panes = out.panes.map((p: Row) => sandboxToWire(p));
  return out;
}
