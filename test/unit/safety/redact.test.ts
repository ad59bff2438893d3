import { test } from "node:test";
import assert from "node:assert/strict";
import { assertLinear } from "../scaling.js";
import { redactCredentials, redactSecrets, SECRET_MASK } from "../../../src/safety/index.js";

test("redactSecrets masks every occurrence, regex characters included", () => {
  const secret = "p@ss.w0rd$(x)*+?[]\\/|^";
  const text = `login ${secret}\nagain:${secret}${secret}`;
  assert.equal(redactSecrets(text, [secret]), `login ${SECRET_MASK}\nagain:${SECRET_MASK}${SECRET_MASK}`);
});

test("redactSecrets prefers the longer secret when one contains another", () => {
  assert.equal(redactSecrets("token=abc123xyz and abc123", ["abc123", "abc123xyz"]), `token=${SECRET_MASK} and ${SECRET_MASK}`);
});

test("redactSecrets ignores empty and blank secrets and leaves other text alone", () => {
  assert.equal(redactSecrets("nothing to hide", ["", "   "]), "nothing to hide");
  assert.equal(redactSecrets("nothing to hide", ["hunter2"]), "nothing to hide");
});

// [kind, input, text that must not survive, text that must survive]
const CREDENTIALS: [string, string, string, string][] = [
  ["aws access key id", "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "AWS_ACCESS_KEY_ID="],
  ["aws session key id", "key: ASIAY34FZKBOKMUTVV7A", "ASIAY34FZKBOKMUTVV7A", "key: "],
  ["aws secret in config", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key = "],
  ["aws secret in json", '"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",', "wJalrXUtnFEMI", '"SecretAccessKey": "'],
  ["authorization header", "> Authorization: Bearer abcdef0123456789abcdef0123456789", "abcdef0123456789", "Authorization: Bearer "],
  ["basic auth header", "Authorization: Basic dXNlcjpodW50ZXIy", "dXNlcjpodW50ZXIy", "Authorization: Basic "],
  ["bearer token in prose", "use bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0 for the api", "9f8e7d6c5b4a3928", "for the api"],
  ["github classic token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 ok", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", " ok"],
  ["github fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_11ABCDEFG", ""],
  ["slack bot token", "SLACK=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012", "SLACK="],
  ["slack webhook", "post to https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX now", "hooks.slack.com/services/T000", " now"],
  ["jwt", "id_token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "id_token "],
  ["private key block", "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAv1\nabc+/=\n-----END RSA PRIVATE KEY-----\ny", "MIIEowIBAAKCAQEAv1", "-----END RSA PRIVATE KEY-----\ny"],
  ["openssh key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAA", "BEGIN OPENSSH PRIVATE KEY"],
  ["truncated key block", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "BEGIN PRIVATE KEY"],
  ["password assignment", "DB_PASSWORD=S3cr3t!pass node app.js", "S3cr3t!pass", " node app.js"],
  ["password in json", '{"password": "correct-horse-battery"}', "correct-horse-battery", '{"password": "'],
  ["url password", "DATABASE_URL=postgres://app:hunter2secret@db:5432/app", "hunter2secret", "postgres://app:"],
  ["openai-style key", "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD", "abcdefghijklmnopqrstuvwxyz0123456789", "OPENAI_API_KEY="],
  ["stripe key", "sk_live_51Habcdefghijklmnop", "sk_live_51Habcdefghijklmnop", ""],
  // Each shape alone on its line: no other rule's keyword (token=, api_key:) near it to catch it.
  ["npm token", "created npm_abcdefghijklmnopqrstuvwxyz0123456789 for ci", "npm_abcdefghijkl", " for ci"],
  ["google api key", "maps AIzaSyDabcdefghijklmnopqrstuvwxyz012345 ok", "AIzaSyDabcdefghi", " ok"],
  ["slack app token", "app xapp-1-A0123456789-1234567890123-abcdef0123 ok", "xapp-1-A0123456789", " ok"],
  ["github oauth token", "gho_abcdefghijklmnopqrstuvwxyz0123456789 ok", "gho_abcdefghijkl", " ok"],
  ["github server token", "ghs_abcdefghijklmnopqrstuvwxyz0123456789 ok", "ghs_abcdefghijkl", " ok"],
  ["github user token", "ghu_abcdefghijklmnopqrstuvwxyz0123456789 ok", "ghu_abcdefghijkl", " ok"],
];

for (const [kind, input, secret, kept] of CREDENTIALS) {
  test(`redactCredentials masks ${kind}`, () => {
    const out = redactCredentials(input);
    assert.ok(!out.includes(secret), `still contains the secret: ${out}`);
    assert.ok(out.includes(kept), `lost context "${kept}": ${out}`);
    assert.match(out, /\[REDACTED:[a-z-]+\]/);
  });
}

// Output that looks a little like credentials but is not.
const LOOKALIKES: string[] = [
  "commit 3f786850e387550fdab836ed7e6dc881de23001b",
  "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "uuid 123e4567-e89b-12d3-a456-426614174000",
  "Password: ",
  "password=$DB_PASSWORD",
  "password: ${{ secrets.DB_PASSWORD }}",
  "secret: true",
  "api_key = <your key here>",
  // Placeholders long enough to look like values (6+ characters) in docs and config templates.
  'password = "changeme"',
  "api_key: required",
  "access_token: xxxxxxxx",
  "client_secret: string",
  "the bearer of bad news arrived",
  "Authorization required",
  "AKIA is the prefix of AWS access key ids",
  "https://example.com/path?x=1",
  "user@host:~/projects$ ls",
  "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
  "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
  "eyJhbGciOiJIUzI1NiJ9 alone is only a header",
  "npm WARN deprecated tar@2.2.2",
  "tokens: 1,234 raw_tokens: 5,678",
  "git push --force-with-lease origin main",
  "ghp_short",
];

for (const text of LOOKALIKES) {
  test(`redactCredentials leaves ${JSON.stringify(text.slice(0, 40))} alone`, () => {
    assert.equal(redactCredentials(text), text);
  });
}

test("redactCredentials and redactSecrets grow linearly with the output (1 MB; the speed is in npm run bench pure)", () => {
  const line = "src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'. password hint\n";
  const output = (size: number) => line.repeat(Math.ceil(size / line.length)).slice(0, size) + "\nAKIAIOSFODNN7EXAMPLE\n";
  assert.ok(redactCredentials(output(1000)).includes("[REDACTED:aws-access-key-id]"));
  assertLinear("redactCredentials", output, (text) => redactCredentials(text));
  const withSecret = (size: number) => "x".repeat(size / 2) + "s3cret" + "y".repeat(size / 2);
  assert.ok(redactSecrets(withSecret(1000), ["s3cret", "other"]).includes(SECRET_MASK));
  assertLinear("redactSecrets", withSecret, (text) => redactSecrets(text, ["s3cret", "other"]));
});

test("adversarial 1 MB inputs stay bounded (no quadratic regex scans)", () => {
  const inputs = ["-eyJ".repeat(250_000), "a.".repeat(499_000) + "://", "bearer -".repeat(125_000), "password=".repeat(110_000)];
  for (const input of inputs) {
    const start = performance.now();
    redactCredentials(input);
    const elapsed = performance.now() - start;
    assert.ok(elapsed < 1000, `${input.slice(0, 12)}…: ${elapsed} ms`);
  }
});
