// MCP prompts: short, concrete playbooks a client can hand a model, naming the exact tool calls.
import type { GetPromptResult, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

function user(text: string): GetPromptResult {
  return { messages: [{ role: "user", content: { type: "text", text } }] };
}

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    "monitor-terminal",
    {
      title: "Monitor a terminal session",
      description: "Watch a session and report what happens in it, using terminal_wait and terminal_read.",
      argsSchema: z.object({ session: z.string().min(1).describe("Session id or name (see terminal_list).") }),
    },
    ({ session }) => user(
      `Monitor the terminal session ${JSON.stringify(session)} and tell me what happens in it.

1. terminal_list: check that ${JSON.stringify(session)} exists and is alive; note its running command and whether it is full-screen (tui).
2. terminal_read {"session": ${JSON.stringify(session)}, "mode": "screen"} once to see where it stands.
3. Loop: terminal_wait {"session": ${JSON.stringify(session)}, "for": "idle", "timeout_s": 60} (or "for": "pattern" with a regex such as "error|Error|FAIL|\\\\$ $" when you know what to watch for). It returns the output since your last read, so you never miss or repeat lines.
4. For a full-screen program (vim, less, htop) use terminal_read mode "diff" to see only the lines that changed.
5. After each wait, summarise in one or two lines: progress, errors (quote the exact line), prompts asking for input. Stop when the program exits (alive: false) or asks for input; do not type into the session unless I ask you to.`,
    ),
  );

  server.registerPrompt(
    "run-and-analyse",
    {
      title: "Run a command and analyse its output",
      description: "Run a command with terminal_run, then explain the result, fetching folded details with terminal_read.",
      argsSchema: z.object({
        command: z.string().min(1).describe("The command line to run."),
        session: z.string().optional().describe("Session id or name; a new session is opened when omitted."),
      }),
    },
    ({ command, session }) => user(
      `Run this command and analyse its output: ${JSON.stringify(command)}

1. ${session ? `Use the session ${JSON.stringify(session)}.` : `Open a session first: terminal_open {} and use the name it returns.`}
2. terminal_run {"session": <session>, "command": ${JSON.stringify(command)}, "timeout_s": 120}. The result gives the exit code and why it counted as complete (osc133, exit, until, nested-prompt, fullscreen, idle, timeout).
3. If reason is "timeout", the command is still running: terminal_wait {"session": <session>, "for": "completion"} until it finishes (or send C-c with terminal_send keys ["C-c"] if it hangs).
4. Long output is folded: a fold marker names the exact terminal_read call (mode "lines", from_line/to_line) for the hidden lines. Make that call for any part you need — errors and the first failure matter most; do not re-run the command to see more.
5. Report: exit code, what the command did, every error or warning with its exact text and file:line when given, and the likely cause and fix. Say plainly when it succeeded.`,
    ),
  );

  server.registerPrompt(
    "orchestrate-team",
    {
      title: "Orchestrate a team of agents",
      description: "Run a team of agents towards a goal with hive_layout / agent_spawn, hive_message, hive_wait and hive_events.",
      argsSchema: z.object({
        goal: z.string().min(1).describe("What the team should achieve."),
        team: z.string().optional().describe("Team name (default: team)."),
      }),
    },
    ({ goal, team }) => {
      const t = team ?? "team";
      return user(
        `You orchestrate the team ${JSON.stringify(t)}. Goal: ${goal}

1. Plan: split the goal into 2–4 independent tasks, one per agent; decide who does what and how you will check the result.
2. Start the agents. Side by side a person can watch: hive_layout {"layout": "tiled", "panes": [{"name": "<agent>", "command": "claude", "team": ${JSON.stringify(t)}}, …]}. One at a time: agent_spawn {"name": "<agent>", "command": "claude", "team": ${JSON.stringify(t)}} (add "worktree": {"repo": "<path>", "branch": "<agent>-work"} so agents editing code do not collide). Check agent_list shows each one ready.
3. Brief them: hive_message {"agents": {"<agent>": "<its task, the files it owns, how to report done>"}, "teams": {${JSON.stringify(t)}: "<shared context>"}}. Check delivered is true for each; resend to any that is not.
4. Wait, do not poll: hive_wait {"targets": "team:${t}", "for": "idle", "mode": "all", "timeout_s": 600}; use "for": "waiting_for_input" with "mode": "any" to catch an agent that needs an answer.
5. Follow along with hive_events {"since": <cursor>} (pass the returned cursor next time): status changes, watcher hits, messages. hive_read {"targets": "team:${t}"} shows their screens when you need detail.
6. Answer questions and correct course with hive_message to the one agent concerned. When all are idle, check each result yourself (hive_read, terminal_run of the tests), then summarise what was done and what is left.`,
      );
    },
  );
}
