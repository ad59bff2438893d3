// What the terminal operations take: declared beside them (terminal/ops/inputs.ts), named here
// too for the doors and verbs that import them from the service.
export type * from "../terminal/ops/inputs.js";
