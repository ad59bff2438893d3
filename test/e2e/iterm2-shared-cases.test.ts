// The shared shell and program cases (test/e2e/cases) on TERMHIVE_BACKEND=iterm2, with the
// sessions in the protocol-level iTerm2 simulator (test/fixtures/iterm2-sim).
import { after } from "node:test";
import { Iterm2Simulator } from "../fixtures/iterm2-sim/server.js";
import { knownGaps } from "./cases/known-gaps.js";
import { programCases } from "./cases/programs.js";
import { backendExtraEnv, shellCases } from "./cases/shells.js";

const sim = await Iterm2Simulator.start();
backendExtraEnv.iterm2 = sim.env();
after(() => sim.stop());

// What the iTerm2 backend cannot do, by the nature of iTerm2's API (see README, "macOS and iTerm2").
knownGaps.iterm2 = {
  "multi-line command runs once and reports its exit":
    "prompt marks arrive as notifications and are placed where the screen is when they are handled; the marks of several commands typed at once land together",
  "seq 1 200000: the run completes and every line reaches the session":
    "output is read from iTerm2's screen and history; lines that scroll out of the history before they are read are lost (reported as a gap)",
};

shellCases("iterm2");
programCases("iterm2");
