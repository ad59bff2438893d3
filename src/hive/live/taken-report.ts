// The program's own word that it took a typed text (terminal/typing/delivery.ts `taken`): the
// UserPromptSubmit hook of the pane's agents (Claude Code, Codex) reports each prompt into the
// hive store (hive/store/prompt-reports.ts). Agents whose profile has no such hook, whose command is
// not the profile's program or switches its hooks off by a flag have none: the screen decides
// for them. An agent on a host reports the same way, through the host's own tmux
// (serve/host-door.ts records the prompt as the local hook does).
import type { Hive } from "../index.js";
import type { TakenReport } from "../../terminal/typing/delivery.js";
import { traced } from "../../util/traced.js";
import { hooksConfigured } from "./hook-launch.js";

export function takenReportFor(hive: Hive, sessionId: string, text: string): TakenReport | undefined {
  try {
    const reporting = hive.agents.bySession(sessionId).flatMap((agent) => {
      const profile = hive.profiles.find(agent.profile);
      if (!profile?.hooks?.events.some((e) => e.event === "UserPromptSubmit")) return [];
      const launch = hive.launches.find(agent.name);
      if (!launch || !hooksConfigured(launch.command ?? undefined, profile, launch.envNames)) return [];
      return [agent.name];
    });
    if (reporting.length === 0) return undefined;
    return {
      label: "its UserPromptSubmit hook",
      reported: (since) => {
        try {
          return hive.prompts.reportedSince(reporting, text, since);
        } catch (error) {
          traced("reading the prompts an agent's hook reported")(error); // a locked store: asked again on the next look
          return false;
        }
      },
      silent: () => {
        try {
          for (const name of reporting) hive.launches.noteHooksOff(name);
        } catch (error) {
          traced("noting that an agent's hooks do not report")(error); // a locked store: the next text waits once more
        }
      },
      hooksRun: () => {
        const ran = reporting.map((name) => hive.launches.find(name)?.hooksRanAt ?? null);
        if (ran.some((at) => at !== null && at > 0)) return true;
        return ran.every((at) => at === 0) ? false : "unknown";
      },
    };
  } catch (error) {
    traced("finding who reports a typed text")(error);
    return undefined;
  }
}
