// Source typed into Python's REPL keeps its meaning there (python-paste.ts): the cases a run
// meets when a model sends ordinary code. Checked against the real interpreter in
// test/e2e/after-fullscreen.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pasteForPythonRepl } from "../../../src/terminal/typing/python-paste.js";

test("an empty line between a class's methods is left out; the one that ends the class stays", () => {
  const source = "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n\nprint(A().g())";
  const paste = pasteForPythonRepl(source);
  assert.equal(paste.text, "class A:\n    def f(self):\n        return 1\n    def g(self):\n        return 2\n\nprint(A().g())");
  assert.deepEqual([paste.droppedEmpty, paste.addedEmpty], [1, 0]);
});

test("a top-level line right after a block gets the empty line that ends the block; else/except do not", () => {
  const paste = pasteForPythonRepl("for i in range(2):\n    print(i)\nprint('done')\ntry:\n    x = 1\nexcept Exception:\n    pass\nelse:\n    print(x)");
  assert.equal(paste.text, "for i in range(2):\n    print(i)\n\nprint('done')\ntry:\n    x = 1\nexcept Exception:\n    pass\nelse:\n    print(x)");
  assert.deepEqual([paste.droppedEmpty, paste.addedEmpty], [0, 1]);
});

test("empty lines inside a triple-quoted string or brackets are the text's own", () => {
  const source = 'def f():\n    """Doc.\n\n    More."""\n    return [\n\n        1,\n]\n\nf()';
  assert.equal(pasteForPythonRepl(source).text, source);
});

test("quotes, comments and a backslash continuation do not confuse the reading", () => {
  const source = "s = 'a\"\"\"b'  # not a string start: \"\"\"\nif s:\n    t = 1 + \\\n2\n\n    print(t)";
  assert.equal(pasteForPythonRepl(source).text, "s = 'a\"\"\"b'  # not a string start: \"\"\"\nif s:\n    t = 1 + \\\n2\n    print(t)");
});

test("a single statement and plain lines pass unchanged", () => {
  for (const source of ["print(1)", "x = 1\ny = 2", "while True:", "for i in x:\n    print(i)\n"]) {
    assert.deepEqual(pasteForPythonRepl(source), { text: source, droppedEmpty: 0, addedEmpty: 0 });
  }
});
