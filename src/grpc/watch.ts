// Server-streaming RPCs. Both follow the registry's session events: no polling.
import type * as grpc from "@grpc/grpc-js";
import type { TermhiveService } from "../service/service.js";
import type { Disposable } from "../util/lifecycle.js";
import type { TerminalSession } from "../terminal/session/session.js";
import { replyError } from "./reply-error.js";
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

/** Keeps `subscriptions` until the call ends, however it ends. */
function holdUntilEnd(call: Stream, subscriptions: Disposable[]): void {
  const stop = () => {
    for (const subscription of subscriptions) subscription.dispose();
  };
  call.once("cancelled", stop);
  call.once("close", stop);
  call.once("finish", stop);
}

export async function watchOutput(service: TermhiveService, call: Stream): Promise<void> {
  const wanted = await resolve(service, call);
  if (wanted === undefined) return;
  const seen = new Set<string>();
  const queue = new OutputQueue(call, service.config.grpcWatchBacklogBytes);
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
  const registry = service.registry;
  holdUntilEnd(call, [
    registry.onOutput(({ session, data }) => {
      if (wanted && !wanted.has(session.id)) return;
      if (!seen.has(session.id)) return backlog(session);
      send(session, data);
    }),
  ]);
}

export async function watchEvents(service: TermhiveService, call: Stream): Promise<void> {
  const wanted = await resolve(service, call);
  if (wanted === undefined) return;
  const watching = (s: TerminalSession) => !wanted || wanted.has(s.id);
  const send = (s: TerminalSession, kind: string, extra: { exit_code?: number | null; command?: string } = {}) => {
    if (watching(s)) call.write({ kind, session: s.id, name: s.name, time_ms: Date.now(), ...extra });
  };
  const registry = service.registry;
  holdUntilEnd(call, [
    registry.onOpened(({ session }) => send(session, "opened")),
    registry.onCommandStarted(({ session, record }) => send(session, "command-start", { command: record.command })),
    registry.onCommandFinished(({ session, record, exitCode }) => send(session, "command-end", { command: record.command, exit_code: exitCode })),
    registry.onExited(({ session, status }) => send(session, "exit", { exit_code: status })),
    registry.onClosed(({ session }) => send(session, "closed")),
  ]);
}
