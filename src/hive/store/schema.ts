// The hive's schema as an append-only list of migrations. MIGRATIONS[i] takes a file from
// user_version i to i+1. Never edit a shipped entry: add a new one (old files in users' homes
// were built from the old text).
//
// Times are integer milliseconds since the epoch. Names (agents, teams, layouts) are the
// primary keys: they are what people and models type, and they are unique by design.

export const MIGRATIONS: readonly string[] = [
  // v1
  `
  CREATE TABLE teams (
    name        TEXT PRIMARY KEY,
    -- No FOREIGN KEY on parent: teams.ts re-parents children explicitly on removal and
    -- reports it, rather than letting SQLite null them behind our back.
    parent      TEXT,
    description TEXT,
    created_at  INTEGER NOT NULL
  );
  CREATE INDEX teams_parent ON teams(parent);

  CREATE TABLE agents (
    name          TEXT PRIMARY KEY,
    session_id    TEXT NOT NULL,
    session_name  TEXT,
    profile       TEXT NOT NULL,
    team          TEXT,
    status        TEXT NOT NULL CHECK (status IN ('starting','working','idle','waiting_for_input','error','exited')),
    status_detail TEXT,
    status_source TEXT,
    exit_code     INTEGER,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
  );
  CREATE INDEX agents_team ON agents(team);
  CREATE INDEX agents_session ON agents(session_id);

  -- AUTOINCREMENT (not a plain rowid): ids are never reused even after old rows are pruned,
  -- so an event id is a cursor that only moves forward.
  CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    at         INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('status','watch','message','lifecycle')),
    agent      TEXT,
    session_id TEXT,
    data       TEXT NOT NULL
  );
  CREATE INDEX events_session ON events(session_id, id);

  CREATE TABLE watchers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    target     TEXT NOT NULL,
    pattern    TEXT NOT NULL,
    flags      TEXT NOT NULL,
    label      TEXT,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    sender     TEXT NOT NULL,
    recipient  TEXT NOT NULL,
    text       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    read_at    INTEGER
  );
  CREATE INDEX messages_inbox ON messages(recipient, read_at, id);

  CREATE TABLE layouts (
    name       TEXT PRIMARY KEY,
    spec       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // v2: the turn a typed message started (so hive_wait {for: "idle"} waits for it,
  // in every process) and messages queued for an agent that was busy.
  `
  CREATE TABLE turns (
    agent   TEXT PRIMARY KEY,
    -- when the message was (about to be) typed
    since   INTEGER NOT NULL,
    -- when the agent was first seen busy after it; NULL: not yet
    busy_at INTEGER,
    -- 1 while the text is being typed (its echo is not the turn; statuses do not advance it)
    typing  INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    -- JSON array of the agent names this text reaches (names sharing one session)
    agents     TEXT NOT NULL,
    text       TEXT NOT NULL,
    level      TEXT NOT NULL,
    source     TEXT NOT NULL,
    submit     INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    -- the process typing it now ("<pid>:<random>"), and since when; a stale claim is retaken
    claimed_by TEXT,
    claimed_at INTEGER
  );
  CREATE INDEX outbox_session ON outbox(session_id, id);
  `,
  // v3: notifications off the machine: each notice (keyed by the event it comes
  // from) is claimed by one termhive process, which sends it; the debounce reads the same rows.
  `
  CREATE TABLE notifications (
    event_id    INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL,
    agent       TEXT,
    claimed_by  TEXT NOT NULL,
    claimed_at  INTEGER NOT NULL
  );
  CREATE INDEX notifications_recent ON notifications(agent, kind, claimed_at);
  `,
  // v4: how each agent was started, so agent_restore can bring it back after its
  // pane is gone (tmux killed, a reboot), one row per agent name (launches.ts): command as
  // given (before hook arguments; NULL: the shell), env_names a JSON array of NAMES (values are
  // never stored), the window, pane index and layout kind it was in, sandbox the JSON policy of
  // its session meta, and the program's own conversation id (Claude Code session_id, Codex
  // thread id) with who gave it ('chosen' by termhive, or reported by a 'hook'). Comments stay
  // out of the SQL: SQLite keeps the text in page 1's schema, which must stay small.
  `
  CREATE TABLE agent_launches (
    agent TEXT PRIMARY KEY, profile TEXT NOT NULL, command TEXT, cwd TEXT, env_names TEXT NOT NULL DEFAULT '[]',
    team TEXT, host TEXT, rows INTEGER, cols INTEGER, window TEXT, pane_index INTEGER, layout TEXT, sandbox TEXT,
    conversation_id TEXT, conversation_by TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  );
  `,
  // v5: a permission request an agent's hook holds open (Claude Code's
  // PermissionRequest) until the hive answers it or it times out (permission-asks.ts).
  // decision 'allow' | 'deny' is set by hive_answer; taken_at is when the hook read it.
  // Comments stay out of the SQL (page 1's schema must stay small).
  `
  CREATE TABLE permission_asks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, agent TEXT NOT NULL, digest TEXT NOT NULL, tool TEXT NOT NULL, summary TEXT NOT NULL,
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, decision TEXT CHECK (decision IN ('allow','deny')), message TEXT,
    decided_at INTEGER, taken_at INTEGER
  );
  CREATE INDEX permission_asks_agent ON permission_asks(agent, id);
  `,
  // v6: when the launch's own hooks first reported (launches.ts noteHooksRan): a Codex
  // whose hooks run is not read by its notify. A new launch (INSERT OR REPLACE) starts at NULL.
  `
  ALTER TABLE agent_launches ADD COLUMN hooks_ran_at INTEGER;
  `,
  // v7: the prompts an agent program's UserPromptSubmit hook reported taking, as digests, kept
  // minutes (prompt-reports.ts): a typed message is delivered once its text is among them.
  `
  CREATE TABLE hook_prompts (id INTEGER PRIMARY KEY AUTOINCREMENT, agent TEXT NOT NULL, digest TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE INDEX hook_prompts_agent ON hook_prompts(agent, digest, at);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
