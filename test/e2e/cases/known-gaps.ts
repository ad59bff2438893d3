// Shared cases a backend cannot pass by design, each with the reason, so the suites run on
// that backend anyway and report the case as skipped, saying why (never silently green).
import { test as nodeTest, type TestContext } from "node:test";

/** backend → case title → why the backend cannot do it. */
export const knownGaps: Record<string, Record<string, string>> = {};

type Case = (t: TestContext) => Promise<void> | void;

/** node:test's `test`, skipping the cases listed for `backend`. */
export function testFor(backend?: string): (name: string, fn: Case) => void {
  return (name, fn) => {
    const gap = backend ? knownGaps[backend]?.[name] : undefined;
    if (gap) nodeTest(name, { skip: `${backend}: ${gap}` }, () => {});
    else nodeTest(name, fn);
  };
}
