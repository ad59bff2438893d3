// The built-in agent profiles, written in the same JSON format a user's TERMHIVE_PROFILES file
// uses (see profiles.ts), so they are validated by the same code and can be `extends`-ed.
//
// Rules are tried in order; the first match wins. The order that matters for every TUI agent:
// a question on screen (waiting_for_input) beats a spinner (working) beats an error line beats
// the idle input prompt — the input box of Claude Code and Codex stays visible while they work,
// and the permission menu's "❯ 1. Yes" would otherwise look like Claude's idle prompt.
// Patterns are deliberately conservative: they match strings the programs print in their own
// chrome (footer, spinner, dialogs), not words a model might write in its answer. `lines`
// limits a rule to the bottom of the screen, where that chrome lives.
import type { ProfileConfig } from "./profiles.js";

/**
 * A question a command in a shell asks and waits on: "[y/N]", "(yes/no)", a password or a
 * passphrase. The shell profile's rule, and terminal_run's (src/terminal/waits/question-wait.ts).
 */
export const SHELL_QUESTION = String.raw`\[y/N\]|\[Y/n\]|\(y/n\)|\(yes/no(?:/\[fingerprint\])?\)\??\s*$|[Pp]assword[^:\n]*:\s*$|[Pp]assphrase[^:\n]*:\s*$`;

export const BUILTIN_PROFILES: Readonly<Record<string, ProfileConfig>> = {
  claude: {
    description: "Claude Code (Anthropic's CLI agent)",
    command: "claude",
    // `claude --help` 2.1.332: these run every tool without asking, or let one Shift+Tab do so (agent_spawn wants a sandbox or confirm).
    dangerousFlags: ["--dangerously-skip-permissions", "--allow-dangerously-skip-permissions", "--permission-mode bypassPermissions"],
    // Checked against these versions, offline, by test/e2e/real-claude.test.ts (docs/agents.md).
    checkedVersions: ["2.1.332"],
    // The input prompt or the "? for shortcuts" footer appear once the TUI accepts input.
    ready: String.raw`\? for shortcuts|^[\s│]*[>❯](?:\s|$)`,
    quietIdleMs: 1500,
    quietStatus: "idle",
    rules: [
      // Tool permission dialog: "Do you want to proceed?" / "Do you want to make this edit to x?"
      // with a numbered menu "❯ 1. Yes  2. Yes, and don't ask again …  3. No, and tell Claude …".
      // The question must be followed by the numbered menu: a model asking "Do you want to …?"
      // in its answer is not a dialog.
      { status: "waiting_for_input", pattern: String.raw`Do you want to (?:proceed|make this edit|create|allow|overwrite|run)[\s\S]*?\b1\.\s+Yes`, lines: 30, detail: "permission prompt" },
      { status: "waiting_for_input", pattern: String.raw`No, and tell Claude what to do differently`, lines: 30, detail: "permission prompt" },
      // 2.1.332, auto mode (the default): a Read of a file outside the working directories
      // (shown until the user picks a "keep"/"block" choice): "Allow this read outside the
      // working directories?" "❯ 1. Yes, and keep allowing any reads outside the working
      // directories  2. No, and block reads …  3. No, and ask again next time  4. Yes, but ask
      // again next time". In manual mode the same Read asks "Do you want to proceed?" (above).
      { status: "waiting_for_input", pattern: String.raw`Allow this read outside the working directories\?[\s\S]*?\b1\.\s+Yes`, lines: 30, detail: "read-outside prompt" },
      // First start in a new folder.
      { status: "waiting_for_input", pattern: String.raw`Do you trust the files in this folder\?`, lines: 30, detail: "trust prompt" },
      // 2.1.332 asks it without a question: "Accessing workspace: … Quick safety check: Is this
      // a project you created or one you trust? …  ❯ No, exit  Yes, I trust this folder" (the
      // cursor on "No, exit": Enter leaves).
      { status: "waiting_for_input", pattern: String.raw`Quick safety check: Is this a project you created or one you trust\?[\s\S]*?Yes, I trust this folder`, lines: 30, detail: "trust prompt" },
      // Start-up dialogs of 2.1.3xx: manual mode kept in settings; an API key in the environment.
      { status: "waiting_for_input", pattern: String.raw`Make auto mode your default permission mode\?`, lines: 30, detail: "start-up choice" },
      { status: "waiting_for_input", pattern: String.raw`Do you want to use this API key\?`, lines: 30, detail: "API key prompt" },
      // The menu cursor on a numbered option, or any menu's footer.
      { status: "waiting_for_input", pattern: String.raw`^[\s│]*❯\s*\d+\.\s+\S`, lines: 30, detail: "choice prompt" },
      { status: "waiting_for_input", pattern: String.raw`^\s*(?:Enter to confirm · )?Esc to cancel\b|[Pp]ress [Ee]nter to continue`, lines: 4, detail: "dialog" },
      // Spinner line while a turn runs: "✻ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)".
      { status: "working", pattern: String.raw`esc to interrupt`, flags: "i", lines: 12 },
      { status: "error", pattern: String.raw`API Error|Credit balance is too low|OAuth token has expired|Invalid API key|Request timed out`, lines: 12 },
      // "Interrupted · What should Claude do instead?" after Esc: the turn ended, input is open.
      // No Stop hook runs for an interrupt, so this replaces the hook's "working".
      { status: "idle", pattern: String.raw`Interrupted .*What should Claude do instead`, lines: 12, detail: "interrupted", overridesHooks: true },
      // The input box: a line that starts with ">" (older "│ > " box, newer "> " between rules).
      { status: "idle", pattern: String.raw`^[\s│]*[>❯](?:\s|$)`, lines: 10, minQuietMs: 300, detail: "input prompt" },
    ],
    // Exact status from Claude Code's own hooks (passed with --settings, merged with the
    // user's settings); the screen rules above still see what hooks do not report.
    hooks: {
      via: "claude-settings",
      events: [
        { event: "SessionStart", status: "idle" },
        { event: "UserPromptSubmit", status: "working" },
        { event: "Stop", status: "idle" },
        { event: "StopFailure", status: "error" },
        { event: "PermissionRequest", status: "waiting_for_input" },
        { event: "Notification", matcher: "permission_prompt", status: "waiting_for_input" },
        { event: "Notification", matcher: "idle_prompt", status: "idle" },
        { event: "SessionEnd", status: "exited" },
      ],
    },
    // agent_spawn chooses the session id (a UUID) and SessionStart's payload confirms it
    // (`termhive hook` records its session_id); agent_restore resumes it.
    resume: { command: "{command} --resume {id}", newId: "{command} --session-id {id}" },
  },
  codex: {
    description: "OpenAI Codex CLI",
    command: "codex",
    // `codex --help` 0.169.0 and 0.171.0 (--yolo is its hidden alias): no approvals, no sandbox of its own.
    dangerousFlags: ["--dangerously-bypass-approvals-and-sandbox", "--yolo", "--sandbox danger-full-access", "-s danger-full-access"],
    // Checked against these versions, offline, by test/e2e/real-codex.test.ts (docs/agents.md).
    checkedVersions: ["0.169.0", "0.171.0"],
    ready: String.raw`OpenAI Codex|\? for shortcuts|context left|^\s*›(?:\s|$)`,
    quietIdleMs: 1500,
    quietStatus: "idle",
    rules: [
      // Approval dialogs: "Would you like to run the following command?" … "1. Yes, proceed (y)".
      { status: "waiting_for_input", pattern: String.raw`Would you like to (?:run the following command|make the following edits)`, lines: 30, detail: "approval prompt" },
      { status: "waiting_for_input", pattern: String.raw`Press enter to confirm or esc to cancel`, lines: 30, detail: "approval prompt" },
      { status: "waiting_for_input", pattern: String.raw`^[\s›>]*1\.\s+Yes, proceed`, lines: 30, detail: "approval prompt" },
      // At start-up when a hook of the user's is new or changed ("1 hook is new or changed.
      // › 1. Review hooks  2. Trust all and continue  3. Continue without trusting"): a person decides.
      { status: "waiting_for_input", pattern: String.raw`^[\s│]*Hooks need review`, lines: 30, detail: "Hooks need review" },
      // Start-up menus (model migration "Meet …  › 1. Try new model", trust) and any other
      // menu: the cursor on a numbered option, or a menu's footer.
      { status: "waiting_for_input", pattern: String.raw`Do you trust the (?:files|contents)`, lines: 30, detail: "trust prompt" },
      { status: "waiting_for_input", pattern: String.raw`^[\s│]*›\s*\d+\.\s+\S`, lines: 30, detail: "choice prompt" },
      { status: "waiting_for_input", pattern: String.raw`enter/esc confirm|[Pp]ress [Ee]nter to (?:confirm|continue)`, lines: 4, detail: "dialog" },
      // Still starting (0.169: slow on a loaded machine): the header says "loading" where the
      // folder goes, though the composer is drawn. A text submitted then is held by Codex
      // ("Waiting for startup · esc cancel") and sent once the session is up: not idle.
      { status: "starting", pattern: String.raw`^[\s│]*>_ OpenAI Codex \(v[^)\n]*\)[\s│]*\n[\s│]*loading[\s│]*$`, detail: "starting up" },
      { status: "starting", pattern: String.raw`Waiting for startup`, lines: 4, detail: "starting up (a submitted text waits for it)" },
      // Status line while a turn runs: "• Working (12s • esc to interrupt)".
      { status: "working", pattern: String.raw`esc to interrupt`, flags: "i", lines: 12 },
      { status: "error", pattern: String.raw`stream error|unexpected status \d{3}|error sending request`, flags: "i", lines: 12 },
      // "■ Conversation interrupted - use /feedback …" after Esc, above the composer: the turn
      // ended, and Codex runs no Stop hook for it, so this replaces the hook's "working".
      { status: "idle", pattern: String.raw`^[\s│]*■ Conversation interrupted`, lines: 5, detail: "interrupted", overridesHooks: true },
      // The composer prompt "›" (older builds: "▌" or ">").
      { status: "idle", pattern: String.raw`^\s*[›▌>](?:\s|$)`, lines: 10, minQuietMs: 300, detail: "input prompt" },
    ],
    // Codex's own hooks, trusted for this session on its command line (codex-hooks.ts): a
    // prompt taken (UserPromptSubmit, ~50 ms after Enter, with the exact text) → working; the
    // turn's end (Stop) → idle. Codex waits for each hook, so only these two run: SessionStart
    // fires just before the first UserPromptSubmit (it says nothing more), a PermissionRequest
    // hook would hold the approval dialog back (that is read on screen), and the title side
    // thread fires none. Where its hooks are off, its notify reports turn ends (hooks.ts).
    hooks: { via: "codex-hooks", events: [{ event: "UserPromptSubmit", status: "working" }, { event: "Stop", status: "idle" }] },
    // Codex picks its thread id itself: every hook payload carries it as session_id (from the
    // first turn on; notify's thread-id where hooks are off), and `termhive hook` records it;
    // agent_restore resumes it.
    resume: { command: "{command} resume {id}" },
  },
  aider: {
    description: "Aider (AI pair programming in the terminal)",
    command: "aider",
    // Aider's prompt is "> " or the edit format before it: "architect> ", "diff> ", "ask> ".
    ready: String.raw`^[\w-]*> ?`,
    quietIdleMs: 2000,
    quietStatus: "idle",
    rules: [
      // "Create new file? (Y)es/(N)o [Yes]:", "Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]:".
      { status: "waiting_for_input", pattern: String.raw`\(Y\)es/\(N\)o`, lines: 3, detail: "confirmation" },
      { status: "error", pattern: String.raw`litellm\.\w*Error|APIConnectionError|AuthenticationError|RateLimitError`, lines: 10 },
      { status: "working", pattern: String.raw`Waiting for \S+`, lines: 3, detail: "waiting for the model" },
      { status: "idle", pattern: String.raw`^[\w-]*> ?`, lines: 1, minQuietMs: 500, detail: "input prompt" },
    ],
  },
  shell: {
    description: "A plain interactive shell (bash, zsh, fish); OSC 133 markers, when present, are more exact",
    command: "",
    ready: String.raw`[$#%❯>]\s*$`,
    quietIdleMs: 1000,
    // A quiet screen without a prompt is a silent command (sleep, a build between lines), not idle.
    quietStatus: "working",
    rules: [
      { status: "waiting_for_input", pattern: SHELL_QUESTION, lines: 2, detail: "question" },
      { status: "idle", pattern: String.raw`[$#%❯>]\s*$`, lines: 1, minQuietMs: 200, detail: "shell prompt" },
    ],
  },
};
