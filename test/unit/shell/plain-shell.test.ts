// A plain POSIX shell's pane points its pagers at termhive's bin/pager, as the integration
// scripts do for bash, zsh and fish, and keeps the user's own values for lines a person types.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isPlainShell, plainShellPagerEnv } from "../../../src/shell/plain-shell.js";

test("sh, dash and ksh by name or path are plain shells; bash, python and command lines are not", () => {
  for (const program of ["sh", "/bin/sh", "dash", "/usr/bin/dash", "ksh", "mksh"]) assert.equal(isPlainShell(program), true, program);
  for (const program of ["bash", "zsh", "fish", "python3", "sh -c 'git log'", "shx", undefined]) assert.equal(isPlainShell(program), false, String(program));
});

test("every pager variable names bin/pager, the user's own kept; systemd's secure mode off unless set", () => {
  const env = plainShellPagerEnv("sh", { GIT_PAGER: "delta", PAGER: "less -R" }, "/opt/th/shell");
  assert.equal(env.PAGER, "/opt/th/shell/bin/pager");
  assert.equal(env.GIT_PAGER, "/opt/th/shell/bin/pager GIT_PAGER");
  assert.equal(env.PSQL_PAGER, "/opt/th/shell/bin/pager PSQL_PAGER");
  assert.equal(env.TERMHIVE_USER_GIT_PAGER, "delta");
  assert.equal(env.TERMHIVE_USER_PAGER, "less -R");
  assert.equal(env.TERMHIVE_USER_MANPAGER, undefined);
  assert.equal(env.SYSTEMD_PAGERSECURE, "0");
  assert.equal(plainShellPagerEnv("dash", { SYSTEMD_PAGERSECURE: "1" }, "/x").SYSTEMD_PAGERSECURE, undefined);
});

test("a folder with a space is quoted; termhive's own pager is not taken for the user's; other programs get nothing", () => {
  const env = plainShellPagerEnv("sh", { PAGER: "'/my th/bin/pager'" }, "/my th");
  assert.equal(env.PAGER, "'/my th/bin/pager'");
  assert.equal(env.TERMHIVE_USER_PAGER, undefined);
  assert.deepEqual(plainShellPagerEnv("python3", { PAGER: "less" }, "/x"), {});
});
