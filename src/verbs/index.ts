// The verb table: every tool of termhive, in the order the MCP door lists them. Adding a verb
// is one file beside this one and one line here (plus its rpc in proto/termhive.proto).
import type { AnyVerb } from "./verb.js";
import terminalOpen from "./terminal-open.js";
import terminalRun from "./terminal-run.js";
import terminalSend from "./terminal-send.js";
import terminalRead from "./terminal-read.js";
import terminalWait from "./terminal-wait.js";
import terminalList from "./terminal-list.js";
import terminalClose from "./terminal-close.js";
import terminalResize from "./terminal-resize.js";
import hiveLayout from "./hive-layout.js";
import hiveSplit from "./hive-split.js";
import agentRegister from "./agent-register.js";
import agentSpawn from "./agent-spawn.js";
import agentList from "./agent-list.js";
import agentRemove from "./agent-remove.js";
import agentRestore from "./agent-restore.js";
import teamCreate from "./team-create.js";
import teamAssign from "./team-assign.js";
import teamList from "./team-list.js";
import teamRemove from "./team-remove.js";
import hiveSend from "./hive-send.js";
import hiveRead from "./hive-read.js";
import hiveMessage from "./hive-message.js";
import hiveQueue from "./hive-queue.js";
import hiveStatus from "./hive-status.js";
import hiveEvents from "./hive-events.js";
import hiveWait from "./hive-wait.js";
import hiveWatch from "./hive-watch.js";
import hiveMail from "./hive-mail.js";
import hiveInbox from "./hive-inbox.js";
import hiveFocus from "./hive-focus.js";
import hiveAnswer from "./hive-answer.js";

/** Each verb by its camel-case name (the gRPC client's method names and types come from here). */
export const VERB = {
  terminalOpen, terminalRun, terminalSend, terminalRead, terminalWait, terminalList, terminalClose, terminalResize,
  hiveLayout, hiveSplit,
  agentRegister, agentSpawn, agentList, agentRemove, agentRestore,
  teamCreate, teamAssign, teamList, teamRemove,
  hiveSend, hiveRead, hiveMessage, hiveQueue, hiveStatus, hiveEvents, hiveWait, hiveWatch, hiveMail, hiveInbox, hiveFocus, hiveAnswer,
};

export const VERBS: readonly AnyVerb[] = Object.values(VERB);

export type { AnyVerb, Services, Verb } from "./verb.js";
