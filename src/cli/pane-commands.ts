// The commands an agent runs in its own pane (the CLI forms of hive_mail, hive_inbox and
// hive_status, see pane-verbs.ts). Named here, apart from the verbs, so that cli.ts can send
// them to their own small door before it loads anything (test/unit/cli/pane-verbs.test.ts
// keeps this list equal to the verbs' own command names).
export const PANE_COMMANDS: readonly string[] = ["msg", "inbox", "status"];
