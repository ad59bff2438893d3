// The SQLite store: WAL, migrations, locked and corrupt files, several processes at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { EventLog, Hive, HiveStore, HiveStoreError, ProfileRegistry, SCHEMA_VERSION } from "../../../src/hive/index.js";
import { openHive, tempHome } from "./helpers.js";

const WRITER = fileURLToPath(new URL("./fixtures/event-writer.ts", import.meta.url));

function startWriter(path: string, count: number, label: string, delayMs = 0): { child: ChildProcess; ids: number[]; done: Promise<number | null>; ready: Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, path, String(count), label, String(delayMs)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ids: number[] = [];
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line === "ready") markReady();
    else ids.push(Number(line));
  });
  const done = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      if (code !== 0 && code !== null) console.error(`writer ${label} failed:\n${stderr}`);
      resolve(code);
    }),
  );
  return { child, ids, done, ready };
}

test("opens a fresh hive.db under the home: WAL, busy timeout, schema version", () => {
  const { hive, home, done } = openHive();
  try {
    assert.equal(hive.store.path, join(home, "hive.db"));
    assert.ok(existsSync(hive.store.path));
    assert.equal(hive.store.db.pragma("journal_mode", { simple: true }), "wal");
    assert.equal(hive.store.db.pragma("busy_timeout", { simple: true }), 5000);
    assert.equal(hive.store.schemaVersion, SCHEMA_VERSION);
  } finally {
    done();
  }
});

test("reopening keeps every row, at the same schema version", () => {
  const { home, cleanup } = tempHome();
  try {
    const a = Hive.open({ home, profiles: new ProfileRegistry() });
    a.agents.register({ name: "a1", sessionId: "s1", team: "red" });
    a.mailbox.send("user", "a1", "hello");
    a.close();
    const b = Hive.open({ home, profiles: new ProfileRegistry() });
    assert.equal(b.store.schemaVersion, SCHEMA_VERSION);
    assert.deepEqual(b.agents.names(), ["a1"]);
    assert.equal(b.agents.get("a1").team, "red");
    assert.equal(b.mailbox.unreadCount("a1"), 1);
    b.close();
  } finally {
    cleanup();
  }
});

test("a file that is not a SQLite database gives a clear error and is left untouched", () => {
  const { home, cleanup } = tempHome();
  try {
    const path = join(home, "hive.db");
    const garbage = Buffer.from("this is not a database, it is someone's notes\n".repeat(200));
    writeFileSync(path, garbage);
    assert.throws(
      () => HiveStore.open({ home }),
      (err: unknown) => {
        assert.ok(err instanceof HiveStoreError);
        assert.equal(err.code, "corrupt");
        assert.match(err.message, /corrupt or not a SQLite database/);
        assert.ok(err.message.includes(path), "names the file");
        assert.match(err.message, /untouched/);
        return true;
      },
    );
    assert.deepEqual(readFileSync(path), garbage, "bytes unchanged");
    assert.ok(!existsSync(path + "-wal"), "no WAL file created next to it");
    // Opening again fails the same way: nothing was recreated over it.
    assert.throws(() => HiveStore.open({ home }), /corrupt/);
    assert.deepEqual(readFileSync(path), garbage);
  } finally {
    cleanup();
  }
});

test("a database with damaged table pages gives a clear corrupt error on use", () => {
  const { home, cleanup } = tempHome();
  try {
    const a = Hive.open({ home, profiles: new ProfileRegistry() });
    for (let i = 0; i < 50; i++) a.agents.register({ name: `agent${i}`, sessionId: `s${i}` });
    a.store.db.pragma("wal_checkpoint(TRUNCATE)");
    const { rootpage } = a.store.db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'agents'").get() as { rootpage: number };
    a.close();
    const path = join(home, "hive.db");
    const bytes = readFileSync(path);
    // Keep the header and the schema (which outgrew page 1 with v4), scribble over the agents table's root page.
    const page = (rootpage - 1) * 4096;
    const damaged = Buffer.concat([bytes.subarray(0, page), Buffer.alloc(4096, 0xa5), bytes.subarray(page + 4096)]);
    writeFileSync(path, damaged);
    // The schema is intact, so opening works; the first read of the damaged table fails clearly.
    const hive = Hive.open({ home, profiles: new ProfileRegistry() });
    try {
      assert.throws(
        () => hive.agents.list(),
        (err: unknown) => err instanceof HiveStoreError && err.code === "corrupt" && err.message.includes(path),
      );
      assert.throws(() => hive.agents.register({ name: "new", sessionId: "s" }), /corrupt/);
    } finally {
      hive.close();
    }
    assert.deepEqual(readFileSync(path), damaged, "the damaged file was not rewritten");
  } finally {
    cleanup();
  }
});

test("a file from a newer termhive (higher user_version) is refused, not downgraded", () => {
  const { home, cleanup } = tempHome();
  try {
    const path = join(home, "hive.db");
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    assert.throws(
      () => HiveStore.open({ home }),
      (err: unknown) => err instanceof HiveStoreError && err.code === "newer-schema" && err.message.includes(path),
    );
  } finally {
    cleanup();
  }
});

test("a write lock held past the busy timeout gives a 'locked' error naming the file; nothing is lost", () => {
  const { home, cleanup } = tempHome();
  try {
    const holder = HiveStore.open({ home });
    const other = HiveStore.open({ home, busyTimeoutMs: 100 });
    const events = new EventLog(other);
    events.append({ kind: "lifecycle", data: { n: 1 } });
    holder.db.exec("BEGIN IMMEDIATE");
    const started = Date.now();
    assert.throws(
      () => events.append({ kind: "lifecycle", data: { n: 2 } }),
      (err: unknown) => {
        assert.ok(err instanceof HiveStoreError, String(err));
        assert.equal(err.code, "locked");
        assert.ok(err.message.includes(holder.path));
        assert.match(err.message, /locked.*100 ms/s);
        return true;
      },
    );
    assert.ok(Date.now() - started >= 90, "waited for the busy timeout first");
    // Readers are not blocked by a writer in WAL mode.
    assert.equal(events.since(0).events.length, 1);
    holder.db.exec("COMMIT");
    events.append({ kind: "lifecycle", data: { n: 3 } });
    assert.deepEqual(events.since(0).events.map((e) => e.data.n), [1, 3]);
    holder.close();
    other.close();
  } finally {
    cleanup();
  }
});

test("two processes appending at once on a fresh file: no lost or duplicate rows", async () => {
  const { home, cleanup } = tempHome();
  try {
    const path = join(home, "hive.db");
    // Both children create and migrate the same new file concurrently.
    const a = startWriter(path, 200, "A");
    const b = startWriter(path, 200, "B");
    assert.deepEqual(await Promise.all([a.done, b.done]), [0, 0]);
    const store = HiveStore.open({ path });
    const rows = store.db.prepare("SELECT id, data FROM events ORDER BY id").all() as { id: number; data: string }[];
    assert.equal(rows.length, 400);
    for (const label of ["A", "B"]) {
      const seqs = rows.map((r) => JSON.parse(r.data)).filter((d) => d.writer === label).map((d) => d.seq);
      assert.deepEqual(seqs, Array.from({ length: 200 }, (_, i) => i), `writer ${label}'s rows all present, in order`);
    }
    assert.deepEqual(rows.map((r) => r.id), Array.from({ length: 400 }, (_, i) => i + 1), "ids contiguous");
    assert.deepEqual([...a.ids, ...b.ids].sort((x, y) => x - y), rows.map((r) => r.id));
    store.close();
  } finally {
    cleanup();
  }
});

test("a reader follows another process's events by cursor, in order, without gaps", async () => {
  const { hive, done } = openHive();
  try {
    const writer = startWriter(hive.store.path, 150, "W", 2);
    const seen: number[] = [];
    let cursor = hive.events.latestCursor();
    let finished = false;
    writer.done.then(() => (finished = true));
    while (!finished || seen.length < 150) {
      const page = hive.events.since(cursor, { limit: 7 });
      seen.push(...page.events.map((e) => e.data.seq as number));
      cursor = page.cursor;
      if (page.events.length === 0) {
        if (finished) break;
        await new Promise((r) => setTimeout(r, 3));
      }
    }
    assert.equal(await writer.done, 0);
    assert.deepEqual(seen, Array.from({ length: 150 }, (_, i) => i));
  } finally {
    done();
  }
});

test("kill -9 of a writer mid-stream: every committed row survives and the file is sound", async () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "keeper", sessionId: "s0" });
    const writer = startWriter(hive.store.path, 100_000, "K", 1);
    await writer.ready;
    while (writer.ids.length < 60) await new Promise((r) => setTimeout(r, 5));
    writer.child.kill("SIGKILL");
    assert.equal(await writer.done, null);
    const committed = [...writer.ids];
    hive.close();

    const again = Hive.open({ path: hive.store.path, profiles: new ProfileRegistry() });
    try {
      assert.equal(again.store.db.pragma("integrity_check", { simple: true }), "ok");
      assert.equal(again.agents.get("keeper").sessionId, "s0");
      const ids = new Set(again.events.since(0, { limit: 1000 }).events.map((e) => e.id));
      for (const id of committed) assert.ok(ids.has(id), `event ${id} acknowledged before the kill is still there`);
      // And the file still takes writes.
      again.events.append({ kind: "lifecycle", data: { after: "kill" } });
    } finally {
      again.close();
    }
  } finally {
    done();
  }
});
