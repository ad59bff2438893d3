// Writes the tokenizer vocabulary the server loads (src/output/token-ranks.ts) from
// gpt-tokenizer's own cl100k_base data, after tsc: `node scripts/gen-token-ranks.mjs`.
// A file of flat bytes loads in a few ms with no JavaScript objects per token; the
// package's JavaScript array literal costs ~40 MB of resident memory to parse.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { RANKS_FILE, serializeRanks } = await import(pathToFileURL(join(root, "dist", "src", "output", "token-ranks.js")).href);
const require = createRequire(import.meta.url);
const ranks = require("gpt-tokenizer/bpeRanks/cl100k_base").default;
const file = join(root, RANKS_FILE);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, serializeRanks(ranks));
