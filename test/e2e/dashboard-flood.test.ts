// A page flooding the dashboard's live channel must not hold up the other pages (issue 20 §6):
// two signed-in sockets on the built `termhive serve`; one sends 25,000 frames at once, the
// other asks one question meanwhile. Judged by order, not time: how many of the flood's
// answers went out before the other page's one.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { serve, type Served } from "./serve-process.js";

const FLOOD = 25_000;

/** Signs in as the browser does (/?token= → cookie), and reads a page token from the page. */
async function signIn(s: Served): Promise<{ cookie: string; pageToken: string }> {
  const login = await fetch(`http://127.0.0.1:${s.port}/?token=${encodeURIComponent(s.token!)}`, { redirect: "manual" });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
  const html = await (await fetch(`http://127.0.0.1:${s.port}/`, { headers: { cookie } })).text();
  const pageToken = /<meta name="termhive-page-token" content="([^"]+)">/.exec(html)?.[1];
  assert.ok(cookie && pageToken, "signed in");
  return { cookie, pageToken };
}

function connect(s: Served, auth: { cookie: string; pageToken: string }): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/live`, ["termhive-live", `termhive-page.${auth.pageToken}`], {
    headers: { cookie: auth.cookie, origin: `http://127.0.0.1:${s.port}` },
  });
  return new Promise((resolve, reject) => (ws.once("open", () => resolve(ws)), ws.once("error", reject)));
}

describe("dashboard live channel under a flood", () => {
  let s: Served;
  before(async () => {
    s = await serve(["--no-grpc-tcp"]);
  });
  after(async () => {
    await s?.stop();
  });

  test(`a page sending ${FLOOD} frames at once does not hold up another page's request`, async () => {
    const auth = await signIn(s);
    const flooder = await connect(s, auth);
    const other = await connect(s, auth);
    let floodReplies = 0;
    const floodDone = new Promise<void>((resolve) =>
      flooder.on("message", (d) => {
        const m = JSON.parse(d.toString()) as { t: string };
        if (m.t === "reply" && ++floodReplies === FLOOD) resolve();
      }),
    );
    const firstFloodReply = new Promise<void>((resolve) => flooder.on("message", () => floodReplies > 0 && resolve()));
    const frames = Array.from({ length: FLOOD }, (_, i) => JSON.stringify({ t: "mailbox", id: i + 1, agent: `nobody-${i}` }));
    for (const frame of frames) flooder.send(frame);
    // The flood is being served: now the other page asks.
    await firstFloodReply;
    const asked = floodReplies;
    const answered = new Promise<number>((resolve) =>
      other.on("message", (d) => {
        const m = JSON.parse(d.toString()) as { t: string; id?: number };
        if (m.t === "reply" && m.id === 7) resolve(floodReplies);
      }),
    );
    other.send(JSON.stringify({ t: "mailbox", id: 7, agent: "someone" }));
    const floodRepliesBefore = (await answered) - asked;
    // Served in turn, the other page waits for a handful of the flood's frames, not thousands.
    assert.ok(floodRepliesBefore < 500, `the other page's answer came after ${floodRepliesBefore} of the flood's ${FLOOD} answers`);
    // And the flood itself is served, every frame, and the server stays up.
    await floodDone;
    assert.equal(floodReplies, FLOOD);
    assert.equal(s.proc.exitCode, null);
    flooder.close();
    other.close();
  });
});
