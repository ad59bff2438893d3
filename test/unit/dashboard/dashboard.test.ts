// The dashboard's checks that need no browser: the live channel's frame parser, the login
// cookie, the exact Origin, the page token, the refusal log's limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { parseClientMessage } from "../../../src/dashboard/client-messages.js";
import { cookieOk, loginCookie, queryToken } from "../../../src/dashboard/auth.js";
import { limitedLog } from "../../../src/dashboard/log.js";
import { PageTokens } from "../../../src/dashboard/page-token.js";
import { originIsOurs } from "../../../src/auth/http-guard.js";

test("well-formed frames parse; anything else is refused with a reason", () => {
  assert.deepEqual(parseClientMessage('{"t":"watch","sessions":["a","b"]}'), { ok: true, message: { t: "watch", sessions: ["a", "b"] } });
  assert.equal(parseClientMessage('{"t":"message","id":1,"to":{"kind":"team","name":"x"},"text":"hi"}').ok, true);
  const refused = (raw: string) => {
    const r = parseClientMessage(raw);
    assert.equal(r.ok, false, raw);
    return (r as { reason: string }).reason;
  };
  assert.equal(refused("{not json"), "not JSON");
  assert.match(refused('{"t":"shell","cmd":"ls"}'), /t/);
  assert.match(refused('{"t":"input","session":"a","data":""}'), /data/);
  assert.match(refused('{"t":"watch","sessions":["a"],"extra":1}'), /.+/);
  assert.match(refused(`{"t":"input","session":"a","data":"${"x".repeat(17 * 1024)}"}`), /data/);
  assert.match(refused('{"t":"message","id":-1,"to":{"kind":"everyone"},"text":"hi"}'), /id/);
  assert.match(refused('{"t":"watch","sessions":' + JSON.stringify(Array.from({ length: 65 }, (_, i) => `s${i}`)) + "}"), /sessions/);
});

function request(headers: Record<string, string>, localPort = 7777): IncomingMessage {
  return { headers, socket: { localPort } } as unknown as IncomingMessage;
}

test("the login cookie is HttpOnly, SameSite=Strict, per port, and not the token", () => {
  const token = "t".repeat(43);
  const set = loginCookie(request({}), token);
  assert.match(set, /^termhive_dashboard_7777=[\w-]+; HttpOnly; SameSite=Strict; Path=\/$/);
  assert.ok(!set.includes(token));
  const pair = set.split(";")[0]!;
  assert.equal(cookieOk(request({ cookie: `other=1; ${pair}` }), token), true);
  assert.equal(cookieOk(request({ cookie: pair }, 7778), token), false, "another port's cookie");
  assert.equal(cookieOk(request({ cookie: pair }), "u".repeat(43)), false, "another token's cookie");
  assert.equal(cookieOk(request({}), token), false);
  assert.equal(cookieOk(request({}), null), true, "auth off");
  assert.equal(queryToken("/?token=abc%2Bd"), "abc+d");
  assert.equal(queryToken("/"), undefined);
});

test("the refusal log lets a burst through, then holds lines back and says how many", () => {
  const lines: string[] = [];
  let now = 0;
  const log = limitedLog((l) => lines.push(l), () => now);
  for (let i = 0; i < 25; i++) log(`refused ${i}`);
  assert.equal(lines.length, 20);
  now += 60_000;
  log("refused later");
  assert.deepEqual(lines.slice(20), ["refused later (and 5 similar lines held back)"]);
});

test("an Origin passes only when it is exactly http://<Host>: scheme, name and port", () => {
  assert.equal(originIsOurs("http://127.0.0.1:7777", "127.0.0.1:7777"), true);
  assert.equal(originIsOurs("http://LOCALHOST:7777", "localhost:7777"), true);
  assert.equal(originIsOurs("http://[::1]:7777", "[::1]:7777"), true);
  assert.equal(originIsOurs("http://127.0.0.1:5173", "127.0.0.1:7777"), false, "another loopback port");
  assert.equal(originIsOurs("http://127.0.0.1", "127.0.0.1:7777"), false);
  assert.equal(originIsOurs("https://127.0.0.1:7777", "127.0.0.1:7777"), false);
  assert.equal(originIsOurs("http://localhost:7777", "127.0.0.1:7777"), false);
  assert.equal(originIsOurs("null", "127.0.0.1:7777"), false);
  assert.equal(originIsOurs("http://evil.example:7777", "127.0.0.1:7777@evil.example:7777"), false);
});

const HOUR = 3600_000;

test("page tokens: each page its own, checked by the key of the serve token; forged or foreign ones fail", () => {
  const tokens = new PageTokens("t".repeat(43), HOUR);
  const a = tokens.issue();
  const b = tokens.issue();
  assert.notEqual(a, b);
  assert.equal(tokens.valid(a), true);
  assert.equal(new PageTokens("t".repeat(43), HOUR).valid(a), true, "a restart with the same serve token keeps pages signed in");
  assert.equal(new PageTokens("u".repeat(43), HOUR).valid(a), false);
  assert.equal(tokens.valid(a.slice(0, -1) + (a.endsWith("A") ? "B" : "A")), false);
  assert.equal(tokens.valid(`${b.split(".").slice(0, 2).join(".")}.${a.split(".")[2]}`), false, "another page's MAC");
  const [, nonce, mac] = a.split(".");
  assert.equal(tokens.valid(`${(Date.now() + 60_000).toString(36)}.${nonce}.${mac}`), false, "a later time of issue is not the one signed");
  assert.equal(tokens.valid(""), false);
  assert.equal(tokens.fromProtocols(`termhive-live, termhive-page.${a}`), true);
  assert.equal(tokens.fromProtocols("termhive-live"), false);
  assert.equal(tokens.fromProtocols(undefined), false);
  const page = tokens.page(Buffer.from('<head><meta name="termhive-page-token" content=""></head>')).toString();
  const inPage = /content="([^"]+)"/.exec(page)?.[1];
  assert.ok(inPage && tokens.valid(inPage), page);
  assert.notEqual(new PageTokens(null, HOUR).issue(), new PageTokens(null, HOUR).issue());
});
