// Server-streaming RPCs. Both ride the backend's "output" event (registered after the
// registry's own listener, so the session has already ingested the bytes): no polling.
import type * as grpc from "@grpc/grpc-js";
import type { TermhiveService } from "../service/service.js";
import type { CommandRecord, TerminalSession } from "../terminal/session.js";
import { replyError } from "./handlers.js";
import { OutputQueue } from "./output-queue.js";

type Stream = grpc.ServerWritableStream<Record<string, unknown>, object>;

const BACKLOG_PIECE = 1024 * 1024;

/** Sessions named in the request (errors end the stream), or null for "every session". */
async function resolve(service: TermhiveService, call: Stream): Promise<Set<string> | null | undefined> {
  try {
    await service.registry.ensureStarted();
    const refs = (call.request.sessions as string[] | undefined) ?? [];
    if (refs.length === 0) return null;
    const ids = new Set<string>();
    for (const ref of refs) ids.add((await service.session(ref)).id);
    return ids;
  } catch (error) {
    call.emit("error", replyError(error));
    return undefined;
  }
}

/** Runs `onOutput` for every output event of a watched session until the call ends. */
function follow(service: TermhiveService, call: Stream, wanted: Set<string> | null, onOutput: (s: TerminalSession, data: Buffer) => void): void {
  const backend = service.backend;
  const listener = (paneId: string, data: Buffer) => {
    const session = service.registry.byPane(paneId);
    if (session && (!wanted || wanted.has(session.id))) onOutput(session, data);
  };
  backend.on("output", listener);
  const stop = () => backend.off("output", listener);
  call.once("cancelled", stop);
  call.once("close", stop);
  call.once("finish", stop);
}

export async function watchOutput(service: TermhiveService, call: Stream): Promise<void> {
  const wanted = await resolve(service, call);
  if (wanted === undefined) return;
  const seen = new Set<string>();
  const queue = new OutputQueue(call);
  const send = (session: TerminalSession, data: Buffer) =>
    queue.push({ session: session.id, name: session.name, data, transcript_end: session.transcript.end });
  // Replay (and a session first seen while watching) comes from the transcript, once.
  const backlog = (session: TerminalSession) => {
    seen.add(session.id);
    const held = Buffer.from(session.transcript.slice(session.transcript.start).text, "utf8");
    // In pieces: a whole transcript (up to TERMHIVE_TRANSCRIPT_MAX_CHARS) is over grpc's 4 MB message limit.
    for (let at = 0; at < held.length; at += BACKLOG_PIECE) send(session, held.subarray(at, at + BACKLOG_PIECE));
  };
  for (const session of service.registry.all()) {
    if (wanted && !wanted.has(session.id)) continue;
    if (call.request.replay === true) backlog(session);
    else seen.add(session.id);
  }
  // Live bytes are the backend's own chunk, not a transcript slice: slicing joins the whole
  // transcript each time, which made a flood quadratic (measured 0.3 MB/s).
  follow(service, call, wanted, (session, data) => {
    if (!seen.has(session.id)) return backlog(session);
    send(session, data);
  });
}

export async function watchEvents(service: TermhiveService, call: Stream): Promise<void> {
  const wanted = await resolve(service, call);
  if (wanted === undefined) return;
  const watched = new Map<TerminalSession, () => void>();
  const send = (s: TerminalSession, kind: string, extra: { exit_code?: number | null; command?: string } = {}) =>
    call.write({ kind, session: s.id, name: s.name, time_ms: Date.now(), ...extra });
  const attach = (s: TerminalSession) => {
    if (watched.has(s)) return;
    const onStart = (r: CommandRecord) => send(s, "command-start", { command: r.command });
    const onEnd = (r: CommandRecord) => send(s, "command-end", { command: r.command, exit_code: r.exitCode });
    const onExit = (status: number | null) => send(s, "exit", { exit_code: status });
    const onGone = () => {
      send(s, "closed");
      detach();
    };
    const detach = () => {
      s.off("command-start", onStart);
      s.off("command-end", onEnd);
      s.off("exit", onExit);
      s.off("gone", onGone);
      watched.delete(s);
    };
    s.on("command-start", onStart);
    s.on("command-end", onEnd);
    s.on("exit", onExit);
    s.on("gone", onGone);
    watched.set(s, detach);
  };
  for (const s of service.registry.all()) if (!wanted || wanted.has(s.id)) attach(s);
  // A session first seen through its output is announced as opened.
  follow(service, call, wanted, (s) => {
    if (watched.has(s)) return;
    attach(s);
    send(s, "opened");
  });
  const stop = () => [...watched.values()].forEach((detach) => detach());
  call.once("cancelled", stop);
  call.once("close", stop);
}
