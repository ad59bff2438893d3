// Masking of secrets in anything echoed back to a model (results, logs, recordings).

/** What a secret given by value becomes. */
export const SECRET_MASK = "••••";

/**
 * Masks every occurrence of each given secret. Values are matched literally (regex
 * metacharacters in a password are just characters); longer secrets win when one
 * contains another; empty and whitespace-only values are ignored, since masking them
 * would garble the whole text.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const values = [...new Set(secrets.filter((s) => s.trim() !== ""))].sort((a, b) => b.length - a.length);
  if (values.length === 0 || text === "") return text;
  const pattern = new RegExp(values.map(escapeRegExp).join("|"), "g");
  return text.replace(pattern, SECRET_MASK);
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

const mask = (kind: string): string => `[REDACTED:${kind}]`;

interface CredentialShape {
  kind: string;
  /** A cheap substring test that must pass before the regex runs (keeps 1 MB scans fast). */
  hint: RegExp;
  pattern: RegExp;
  /** Builds the replacement; by default the whole match is masked. */
  replace?: (match: string, ...groups: string[]) => string;
}

// Shapes are anchored on distinctive prefixes or key names, so prose and hashes (git
// SHAs, sha256 sums, UUIDs) are left alone. Each keeps its context (the key name,
// "Bearer ", the BEGIN/END lines) so the reader still sees what was there.
const SHAPES: readonly CredentialShape[] = [
  {
    kind: "private-key",
    hint: /PRIVATE KEY/,
    pattern: /(-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----)[\s\S]*?(-----END \2PRIVATE KEY( BLOCK)?-----|$)/g,
    replace: (_m, begin: string, _t, _b, end: string) => `${begin}\n${mask("private-key")}\n${end}`.trimEnd(),
  },
  { kind: "aws-access-key-id", hint: /A[KS]IA|ABIA|ACCA/, pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    kind: "aws-secret",
    hint: /secret_?access_?key|session_?token/i,
    pattern: /\b((?:aws_?)?(?:secret_?access_?key|session_?token)["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{16,})/gi,
    replace: (_m, key: string) => `${key}${mask("aws-secret")}`,
  },
  {
    kind: "authorization",
    hint: /authorization/i,
    pattern: /\b(authorization["']?\s*[:=]\s*["']?(?:Bearer|Basic|Token|Bot)?\s*)([A-Za-z0-9\-._~+/=]{8,})/gi,
    replace: (_m, prefix: string) => `${prefix}${mask("authorization")}`,
  },
  {
    kind: "bearer-token",
    hint: /bearer/i,
    pattern: /\b(bearer\s+)([A-Za-z0-9\-._~+/]{16,}=*)/gi,
    replace: (_m, prefix: string, token: string) => (token.startsWith("[REDACTED") ? _m : `${prefix}${mask("bearer-token")}`),
  },
  { kind: "github-token", hint: /gh[pousr]_|github_pat_/, pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: "slack-token", hint: /xox|xapp-|hooks\.slack\.com/, pattern: /\b(?:xox[abposr]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g },
  {
    // Matched in two linear steps: find each run of token characters, then test the whole
    // run against the JWT shape. A single unanchored regex rescans "-eyJ-eyJ-eyJ…" from
    // every "eyJ" and goes quadratic (measured: minutes for 1 MB).
    kind: "jwt",
    hint: /eyJ/,
    pattern: /[A-Za-z0-9_.-]{30,}/g,
    replace: (run: string) => (JWT.test(run) ? mask("jwt") : run),
  },
  { kind: "api-key", hint: /sk[-_]|AIza|npm_/, pattern: /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,}|sk_(?:live|test)_[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36})\b/g },
  {
    // user:password@ in URLs (postgres://app:hunter2@db/…); the user name stays.
    kind: "url-password",
    hint: /:\/\//,
    pattern: /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi,
    replace: (_m, head: string, _p, at: string) => `${head}${mask("password")}${at}`,
  },
  {
    // password=…, DB_PASSWORD=…, "api_key": "…", client_secret: … — only when a value of 6+ plausible
    // characters follows and it is not a placeholder or a variable reference.
    kind: "password",
    hint: /pass|secret|token|api_?key/i,
    pattern: /(?<![A-Za-z0-9])((?:password|passwd|secret|client_secret|api_?key|access_?token|auth_?token)["']?\s*[:=]\s*["']?)(?![$<*•[{]|\*)([^\s"',;&]{6,})/gi,
    replace: (_m, key: string, value: string) => (PLACEHOLDER.test(value) ? _m : `${key}${mask("password")}`),
  },
];

const JWT = /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;
const PLACEHOLDER = /^(true|false|null|none|undefined|required|optional|string|changeme|\.\.\.|x+|<.*>)$/i;

/** Masks common credential shapes; see SHAPES for what counts. */
export function redactCredentials(text: string): string {
  let out = text;
  for (const shape of SHAPES) {
    if (!shape.hint.test(out)) continue;
    shape.pattern.lastIndex = 0;
    out = shape.replace
      ? out.replace(shape.pattern, shape.replace as (substring: string, ...args: unknown[]) => string)
      : out.replace(shape.pattern, mask(shape.kind));
  }
  return out;
}

/**
 * Masks credential shapes in every string inside a JSON-like value (event data, audit
 * entries), leaving keys, numbers and structure alone, so a record built from a screen
 * line carries the masked line wherever it is read.
 */
export function redactCredentialsDeep<T>(value: T): T {
  if (typeof value === "string") return redactCredentials(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactCredentialsDeep(v)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactCredentialsDeep(v);
    return out as T;
  }
  return value;
}
