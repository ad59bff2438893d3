// Exact completion and exit codes in bash, zsh and fish, through the MCP client, plus REPL and
// large-I/O cases. The backend is the server's default, or TERMHIVE_E2E_BACKEND (see harness.ts);
// pty-backend.test.ts runs the same cases against the pty backend explicitly.
import { programCases } from "./cases/programs.js";
import { shellCases } from "./cases/shells.js";

shellCases();
programCases();
