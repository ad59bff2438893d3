// The status tracker's following job: another process's status write (a second Hive on the same
// file, as `termhive hook` is) is seen, the screen is judged first, the pane displays show it,
// then it is announced; the agents kept per session are read again after anyone's write.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Hive, ProfileRegistry, type AgentRecord } from "../../../src/hive/index.js";
import { StoreFollower } from "../../../src/hive/live/status-follower.js";
import { fakeSession } from "../terminal/fake-session.js";
import { until } from "../terminal/pty-registry.js";
import { openHive } from "../hive/helpers.js";
import { fakeStatusPort } from "./fake-status-port.js";

function following(t: { after(fn: () => void): void }, options: { news?: (agent: AgentRecord) => boolean; followed?: boolean } = {}) {
  const { hive, home, done } = openHive();
  const other = Hive.open({ home, profiles: new ProfileRegistry() });
  const { session } = fakeSession("bash");
  hive.registerAgent({ name: "w", sessionId: session.id });
  const port = fakeStatusPort(hive, options.news ? { isNews: options.news } : {});
  const followed = options.followed !== false;
  const follower = new StoreFollower(port, {
    ids: () => (followed ? [session.id] : []),
    session: (id) => (followed && id === session.id ? session : undefined),
    judge: (id) => void port.log.push(`judge ${id}`),
  });
  t.after(() => {
    follower.stop();
    other.close();
    done();
  });
  return { hive, other, port, follower, session };
}

test("following: another process's status is judged against the screen, shown, then announced", async (t) => {
  const { other, port, follower, session } = following(t);
  follower.ensureFollowing();
  other.agents.setStatus("w", "working", { source: "hook", detail: "a hook said so" });
  follower.followStore();
  await until("the announcement", () => port.announced.length > 0);
  assert.deepEqual(port.log, [`judge ${session.id}`, `title ${session.id}`, "announce w working"]);
  assert.equal(port.announced[0]!.statusDetail, "a hook said so");
});

test("following: the follower finds another process's write on its own (the WAL file's change or its tick)", async (t) => {
  const { other, port, follower } = following(t);
  follower.ensureFollowing();
  other.agents.setStatus("w", "idle", { source: "hook", detail: "Stop" });
  await until("the announcement", () => port.announced.some((a) => a.status === "idle"), 5_000);
});

test("following: a status this process announced already is judged but not announced again", async (t) => {
  const { other, port, follower, session } = following(t, { news: () => false });
  follower.ensureFollowing();
  other.agents.setStatus("w", "working", { source: "hook" });
  follower.followStore();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(port.log, [`judge ${session.id}`]);
});

test("following: nothing followed, nothing read", async (t) => {
  const { other, port, follower } = following(t, { followed: false });
  follower.ensureFollowing();
  other.agents.setStatus("w", "working", { source: "hook" });
  follower.followStore();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(port.log, []);
});

test("following: a session's agents are kept while following, and read again after this process's or another's write", (t) => {
  const { hive, other, follower, session } = following(t);
  assert.notEqual(follower.agentsOf(session.id), follower.agentsOf(session.id), "not following yet: read every time");
  follower.ensureFollowing();
  const kept = follower.agentsOf(session.id);
  assert.equal(follower.agentsOf(session.id), kept, "kept while nobody writes");
  hive.agents.setStatus("w", "working", { source: "self" });
  const afterOurs = follower.agentsOf(session.id);
  assert.notEqual(afterOurs, kept, "this process's write drops the view");
  assert.equal(afterOurs[0]!.status, "working");
  other.agents.setStatus("w", "idle", { source: "hook" });
  follower.followStore();
  assert.equal(follower.agentsOf(session.id)[0]!.status, "idle", "another process's commit drops it too");
  const before = follower.agentsOf(session.id);
  follower.forget(session.id);
  assert.notEqual(follower.agentsOf(session.id), before, "forget drops it");
});
