// The dashboard's checks that need no browser: the live channel's frame parser, the login
// cookie, the refusal log's limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { parseClientMessage } from "../../../src/dashboard/client-messages.js";
import { cookieOk, loginCookie, queryToken } from "../../../src/dashboard/auth.js";
import { limitedLog } from "../../../src/dashboard/log.js";

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
