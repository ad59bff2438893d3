import { z } from "zod";
import { AGENT_NULLABLE, name } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { READS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "agent_list",
  title: "List agents",
  description: "Agents (all or a team's, child teams too): session, team, profile, status, detail, alive, sandbox.",
  input: { team: name.optional(), recursive: z.boolean().optional() },
  family: "hive",
  annotations: READS,
  run: (s, input) => s.hive().listAgents(input),
  text: (r) =>
    r.agents.length
      ? r.agents.map((a) => `${a.name}${a.team ? ` [${a.team}]` : ""} ${a.status}${a.detail ? ` (${a.detail})` : ""} · ${a.session_name ?? a.session}${a.alive ? "" : " · gone"}${a.host ? ` · on ${a.host}` : ""}${a.sandbox ? ` · sandbox ${a.sandbox}` : ""}${a.question ? `\n  asks: ${a.question.text.replace(/\s*\n\s*/g, " / ")} (hive_answer question: ${a.question.digest})` : ""}`).join("\n")
      : "no agents",
  cli: {
    command: "agents",
    description: "list agents: name, team, status, session, and the question a waiting one shows",
    options: [["--team <name>", "only this team's agents (child teams too)"]],
    input: (_args: [], o) => ({ team: o.team as string | undefined }),
    // Tab-separated, one agent a line, as `termhive ls`; a waiting agent's question and its digest
    // are what `termhive answer <agent> … -q <digest>` takes.
    text: (r) =>
      r.agents.length
        ? r.agents
            .map((a) => [a.name, a.team ?? "", `${a.status}${a.detail ? ` (${a.detail})` : ""}`, `${a.session_name ?? a.session}${a.alive ? "" : " (gone)"}`, a.question ? `${a.question.text} [-q ${a.question.digest}]` : ""].join("\t"))
            .join("\n")
        : "no agents",
  },
  grpc: "AgentList",
  nullable: { ...under("agents[]", AGENT_NULLABLE), "agents[].question": true },
});
