// The Host check against DNS rebinding (src/auth/http-guard.ts): a loopback name or address
// passes, and only those; a DNS name that merely starts like one is someone's domain.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { hostAndOriginAllowed, isLoopbackHost } from "../../../src/auth/http-guard.js";

function request(headers: Record<string, string>): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return req;
}

test("loopback hosts: localhost, ::1 and every 127.x.y.z address; not a name that starts with 127.", () => {
  for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) assert.equal(isLoopbackHost(host), true, host);
  for (const host of ["127.attacker.example", "127.0.0.1.nip.io", "127.0.0", "evil.example", "128.0.0.1", "0.0.0.0"]) assert.equal(isLoopbackHost(host), false, host);
});

test("a request's Host passes when it is loopback or the bound name, port or not", () => {
  assert.equal(hostAndOriginAllowed(request({ host: "127.0.0.2:7777" }), "127.0.0.1"), true);
  assert.equal(hostAndOriginAllowed(request({ host: "box.lan:7777" }), "box.lan"), true);
  assert.equal(hostAndOriginAllowed(request({ host: "127.attacker.example:7777" }), "127.0.0.1"), false, "DNS rebinding through a 127. name");
  assert.equal(hostAndOriginAllowed(request({ host: "127.attacker.example" }), "127.0.0.1"), false);
  assert.equal(hostAndOriginAllowed(request({}), "127.0.0.1"), false, "no Host at all");
});
