// A dashboard page token opens the live channel for a limited time after its issue
// (TERMHIVE_DASHBOARD_PAGE_TTL_S), and an open page is sent fresh ones over the channel so its
// reconnects keep working. Before, a token copied out of a page opened the channel forever.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { serve, signIn, type Served } from "./serve-process.js";
import { until } from "../until.js";


/** Opens the live channel with a page token: the socket, or the HTTP status it was refused with. */
function open(s: Served, cookie: string, pageToken: string): Promise<WebSocket | number> {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/live`, ["termhive-live", `termhive-page.${pageToken}`], {
    headers: { cookie, origin: `http://127.0.0.1:${s.port}` },
  });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("error", reject);
  });
}

describe("dashboard page tokens expire; open pages get fresh ones", () => {
  let s: Served;
  before(async () => {
    s = await serve(["--no-grpc-tcp"], undefined, { TERMHIVE_DASHBOARD_PAGE_TTL_S: "2" });
  });
  after(async () => s?.stop());

  test("a page token is refused once its lifetime is over; the fresh one the open page was sent is taken", { timeout: 60_000 }, async () => {
    const { cookie, pageToken } = await signIn(s);
    const ws = await open(s, cookie, pageToken);
    assert.ok(ws instanceof WebSocket, `refused: ${String(ws)}`);
    const fresh: string[] = [];
    ws.on("message", (d) => {
      const m = JSON.parse(d.toString()) as { t: string; token?: string };
      if (m.t === "page-token") fresh.push(m.token!);
    });
    // The page's own token stops working (checked by trying it, a connection at a time).
    await until("the page's token to be refused", async () => {
      const tried = await open(s, cookie, pageToken);
      if (tried instanceof WebSocket) return void tried.close();
      assert.equal(tried, 401);
      return true;
    }, 30_000, 200);
    // The open page was sent fresh tokens meanwhile (every quarter of the lifetime); the newest one is taken.
    await until("a token refreshed after the one sent at connect", () => (fresh.length >= 2 ? true : undefined), 30_000);
    const again = await open(s, cookie, fresh.at(-1)!);
    assert.ok(again instanceof WebSocket, `the fresh token was refused: ${String(again)}`);
    again.close();
    ws.close();
  });
});
