// Loads proto/termhive.proto at run time (no generated code). The server decodes requests
// without defaults, so an unset `optional` field stays absent and the zod schema applies its
// default; the client decodes responses with defaults, so a 0/false/"" field is present.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { join } from "node:path";
import { packageRoot } from "../util/paths.js";

export const PROTO_PATH = join(packageRoot(), "proto", "termhive.proto");

interface Loaded {
  service: grpc.ServiceDefinition;
  Client: grpc.ServiceClientConstructor;
}

const cache = new Map<string, Loaded>();

export function loadTermhiveProto(side: "server" | "client"): Loaded {
  const hit = cache.get(side);
  if (hit) return hit;
  const definition = protoLoader.loadSync(PROTO_PATH, {
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: side === "client",
    oneofs: false,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { termhive: { v1: { Termhive: grpc.ServiceClientConstructor } } };
  const Client = pkg.termhive.v1.Termhive;
  const loaded = { service: Client.service, Client };
  cache.set(side, loaded);
  return loaded;
}
