// The hive's SQLite file: opening, pragmas, migrations and turning SQLite's error codes into
// answers a person (or a model) can act on. Every other hive file goes through `HiveStore`.
//
// Several termhive processes open the same file at once (one per MCP client, a gRPC server,
// the dashboard). That is why: WAL (readers never block the single writer), a busy timeout
// (a writer waits for another process's write instead of failing at once), and every write
// in a `BEGIN IMMEDIATE` transaction (the write lock is taken up front, so a read-then-write
// check such as "does this name exist?" cannot interleave with another process).
import Database from "better-sqlite3";
import { chmodSync, closeSync, existsSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { defaultHome, ensurePrivateDir } from "../../util/paths.js";
import { MIGRATIONS } from "./schema.js";

export type HiveStoreErrorCode = "locked" | "corrupt" | "newer-schema" | "open-failed" | "readonly" | "full";

/** A store failure with the database path in the message and a machine-readable code. */
export class HiveStoreError extends Error {
  constructor(
    readonly code: HiveStoreErrorCode,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "HiveStoreError";
  }
}

export interface StoreOptions {
  /** Full path of the database file; default `<home>/hive.db`. */
  path?: string;
  /** termhive's state directory; default `defaultHome()` (TERMHIVE_HOME…). Ignored when `path` is set. */
  home?: string;
  /** How long a write waits for another process's write before failing as "locked". Default 5000 ms. */
  busyTimeoutMs?: number;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export function hiveDbPath(home: string = defaultHome()): string {
  return join(home, "hive.db");
}

/** Maps a raw SQLite error to a HiveStoreError when we know what it means; otherwise returns it unchanged. */
export function translateSqliteError(err: unknown, path: string, busyTimeoutMs: number): unknown {
  if (err instanceof HiveStoreError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== "string") return err;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new HiveStoreError(
      "locked",
      path,
      `hive database is locked: ${path} — another termhive process held the write lock for more than ` +
        `${busyTimeoutMs} ms (busy timeout). Retry, or raise the busy timeout; nothing was written.`,
      { cause: err },
    );
  }
  // SQLITE_FULL is the disk (or its quota) being full; SQLite rolled the transaction back and
  // the same call works again once space is freed, so say exactly that.
  if (code === "SQLITE_FULL" || /ENOSPC|no space left/i.test(err.message)) {
    return new HiveStoreError(
      "full",
      path,
      `the disk holding the hive database is full (no space left on the device of ${path}); nothing was written. ` +
        `Free some space and retry: the hive works again as soon as there is room.`,
      { cause: err },
    );
  }
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new HiveStoreError(
      "corrupt",
      path,
      `hive database is corrupt or not a SQLite database: ${path} (${err.message}). termhive left the file ` +
        `untouched; move it aside (e.g. mv ${path} ${path}.bad) to start a fresh hive, or repair it with sqlite3's .recover.`,
      { cause: err },
    );
  }
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_PERM")) {
    return new HiveStoreError(
      code.startsWith("SQLITE_READONLY") ? "readonly" : "open-failed",
      path,
      `hive database cannot be opened for writing: ${path} (${err.message}); check the file and directory permissions.`,
      { cause: err },
    );
  }
  return err;
}

export class HiveStore {
  readonly db: Database.Database;
  readonly path: string;
  readonly busyTimeoutMs: number;

  /** Per table, how many times this process changed its rows (see writesTo). */
  private readonly written = new Map<string, number>();

  /** One transaction function for every call: better-sqlite3 builds a new one per db.transaction(fn). */
  private readonly inTransaction: Database.Transaction<(fn: () => unknown) => unknown>;

  private constructor(db: Database.Database, path: string, busyTimeoutMs: number) {
    this.db = db;
    this.path = path;
    this.busyTimeoutMs = busyTimeoutMs;
    cacheStatements(db);
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
  }

  /** Opens (creating if missing) and migrates the hive database. Never replaces an existing file. */
  static open(options: StoreOptions = {}): HiveStore {
    const path = options.path ?? hiveDbPath(ensurePrivateDir(options.home ?? defaultHome()));
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    let db: Database.Database;
    try {
      privateFiles(path);
      db = new Database(path, { fileMustExist: false });
    } catch (err) {
      const known = translateSqliteError(err, path, busyTimeoutMs);
      throw known instanceof HiveStoreError
        ? known
        : new HiveStoreError("open-failed", path, `cannot open hive database ${path}: ${(err as Error).message}`, {
            cause: err,
          });
    }
    const store = new HiveStore(db, path, busyTimeoutMs);
    // Two processes opening a fresh file at once: SQLite answers some of the set-up steps
    // (the switch to WAL, the first read while the other one switches) with SQLITE_BUSY at
    // once, without its busy handler. Those are retried until the busy timeout has passed.
    const deadline = Date.now() + busyTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        store.setUp();
        return store;
      } catch (err) {
        const known = translateSqliteError(err, path, busyTimeoutMs);
        if (known instanceof HiveStoreError && known.code === "locked" && Date.now() < deadline) {
          sleepSync(Math.min(10 * attempt, 100) * (0.5 + Math.random()));
          continue;
        }
        db.close();
        throw known;
      }
    }
  }

  /** Busy timeout, WAL, pragmas and schema: each step safe to repeat after SQLITE_BUSY. */
  private setUp(): void {
    const db = this.db;
    const path = this.path;
    // busy_timeout first: switching to WAL on a fresh file needs a lock another process may hold.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(this.busyTimeoutMs))}`);
    // Reading the schema is the first thing that touches the file's pages: a non-database
    // file fails here with SQLITE_NOTADB before we change anything (not even the journal mode).
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    const mode = db.pragma("journal_mode = WAL", { simple: true });
    if (String(mode).toLowerCase() !== "wal") {
      throw new HiveStoreError("open-failed", path, `hive database ${path} refused WAL mode (got ${String(mode)})`);
    }
    // NORMAL is crash-safe in WAL mode: a killed process loses nothing committed; only a
    // power cut can lose the last transactions. FULL would fsync on every event append.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    this.migrate();
  }

  /** The schema version this file is at (PRAGMA user_version). */
  get schemaVersion(): number {
    return Number(this.db.pragma("user_version", { simple: true }));
  }

  /**
   * Runs `fn` in a write transaction taken with BEGIN IMMEDIATE, so checks and writes inside it
   * are atomic against other processes. SQLite errors come out translated (locked, corrupt).
   */
  write<T>(fn: () => T): T {
    try {
      return this.inTransaction.immediate(fn) as T;
    } catch (err) {
      throw translateSqliteError(err, this.path, this.busyTimeoutMs);
    }
  }

  /** A table's writers call this after changing its rows (see writesTo). */
  wrote(table: string): void {
    this.written.set(table, (this.written.get(table) ?? 0) + 1);
  }

  /**
   * How often this process changed a table's rows: a view kept in memory compares it to learn,
   * at once, that this process changed what it shows. Another process's changes move
   * dataVersion instead.
   */
  writesTo(table: string): number {
    return this.written.get(table) ?? 0;
  }

  /**
   * SQLite's data_version: moves when another connection (another termhive process) commits a
   * change to the file, never for this one's own writes. One read of the shared WAL index.
   */
  dataVersion(): number {
    try {
      return this.db.prepare("PRAGMA data_version").pluck().get() as number;
    } catch (err) {
      throw translateSqliteError(err, this.path, this.busyTimeoutMs);
    }
  }

  /** Runs `fn` as one consistent read snapshot (a deferred transaction). */
  read<T>(fn: () => T): T {
    try {
      return this.inTransaction.deferred(fn) as T;
    } catch (err) {
      throw translateSqliteError(err, this.path, this.busyTimeoutMs);
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private migrate(): void {
    const known = MIGRATIONS.length;
    const current = this.schemaVersion;
    if (current > known) {
      throw new HiveStoreError(
        "newer-schema",
        this.path,
        `hive database ${this.path} has schema version ${current}, newer than this termhive knows (${known}); ` +
          `upgrade termhive. The file was not changed.`,
      );
    }
    if (current === known) return;
    // Two processes may start at once on a fresh file: the immediate transaction makes one of
    // them wait, and the re-read of user_version inside it makes the second one a no-op.
    this.write(() => {
      const now = Number(this.db.pragma("user_version", { simple: true }));
      for (let v = now; v < known; v++) {
        this.db.exec(MIGRATIONS[v]!);
        this.db.pragma(`user_version = ${v + 1}`);
      }
    });
  }
}

/** Prepared statements kept past this many distinct SQL texts are dropped (a query built from its filters makes a few). */
const STATEMENT_CACHE_MAX = 256;

/**
 * Makes db.prepare keep each statement by its SQL text. Preparing costs far more than running
 * (the status tracker reads an agent on every screen change of every pane: most of a cascade
 * to 32 agents went to preparing the same few statements), and every query site calls
 * prepare where it runs.
 */
function cacheStatements(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }) as typeof db.prepare;
}

/** Blocks the thread (open is synchronous, as better-sqlite3 is). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The hive holds messages and agents' output: owner-only. SQLite gives its -wal and -shm files
 * the mode of the database file, so creating that one 0600 first covers all three; files left
 * looser by an older termhive are tightened.
 */
function privateFiles(path: string): void {
  try {
    closeSync(openSync(path, "a", 0o600));
  } catch {
    return; // cannot create it: new Database reports why
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch {
      // not there (yet)
    }
  }
}

/** True when a hive database already exists at the default (or given) home. */
export function hiveExists(home: string = defaultHome()): boolean {
  return existsSync(hiveDbPath(home));
}
