// The backend contract stays split by capability: no interface in src/backends/ over 12
// members (an interface that extends others is counted by what it declares: `Backend` is its
// capabilities put together, plus optional capability objects a caller checks for as a whole),
// and the host router routes calls by pane instead of forwarding each one by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const BACKENDS = fileURLToPath(new URL("../../../src/backends", import.meta.url));
const MAX_MEMBERS = 12;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function exportedInterfaces(path: string): ts.InterfaceDeclaration[] {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true);
  return file.statements.filter(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && (s.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  );
}

test("no exported interface in src/backends/ has more than 12 members", () => {
  const all = sources(BACKENDS).flatMap((path) => exportedInterfaces(path).map((i) => ({ name: `${relative(BACKENDS, path)}: ${i.name.text}`, members: i.members.length })));
  assert.ok(all.some((i) => i.name.endsWith(": Backend")), "the Backend interface is found");
  assert.deepEqual(all.filter((i) => i.members > MAX_MEMBERS), []);
});

test("Backend declares capability objects only, each an interface of backend.ts", () => {
  const path = join(BACKENDS, "backend.ts");
  const interfaces = exportedInterfaces(path);
  const names = new Set(interfaces.map((i) => i.name.text));
  const backend = interfaces.find((i) => i.name.text === "Backend")!;
  const notCapabilities = backend.members
    .map((m) => (ts.isPropertySignature(m) && m.type && ts.isTypeReferenceNode(m.type) ? m.type.typeName.getText() : m.getText()))
    .filter((type) => !names.has(type));
  assert.deepEqual(notCapabilities, []);
  const extended = (backend.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText()));
  assert.deepEqual(extended.filter((name) => !names.has(name)), []);
});

test("the host router is under 200 lines", () => {
  const lines = readFileSync(join(BACKENDS, "remote", "host-router.ts"), "utf8").split("\n").length - 1;
  assert.ok(lines < 200, `host-router.ts has ${lines} lines`);
});
