// Bundles the `termhive` command (dist/src/cli.js, built by tsc) into dist/bundle/.
//
// Why: on Node 20 an MCP client waits for the server's first tool list while Node
// resolves, reads and compiles some 400 ES modules (the MCP SDK, zod, Ajv, ours); one
// file per lazily loaded part cuts that start by ~100 ms. Dynamic imports stay lazy
// (code splitting), and packages with native parts or big data stay external, loaded
// from node_modules when first used.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "bundle");

// The SDK's Server loads Ajv eagerly (through its Node shims) for elicitation checks termhive
// rarely needs; this swaps in shims whose validator loads the real one on first use
// (src/mcp/lazy-ajv-provider.ts).
const lazyAjv = {
  name: "lazy-ajv-provider",
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, (args) =>
      args.importer.includes(join("@modelcontextprotocol", "server")) && !args.importer.includes("lazy-ajv-provider")
        ? { path: join(root, "dist", "src", "mcp", "lazy-ajv-provider.js") }
        : undefined,
    );
  },
};

// zod's namespace re-exports all its locales (~300 KB of the ~580 KB it adds, parsed at every
// start); termhive speaks English to models and never calls z.locales: only `en` is bundled.
const englishZod = {
  name: "english-zod",
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "english-zod" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "english-zod" }, (args) => ({ contents: 'export { default as en } from "./en.js";', resolveDir: dirname(args.path) }));
  },
};

const result = await build({
  entryPoints: [join(root, "dist", "src", "cli.js")],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Native addons, and packages loaded lazily on purpose (big data or rarely used doors).
  external: [
    "better-sqlite3",
    "@lydell/node-pty",
    "@xterm/headless",
    "gpt-tokenizer",
    "mvdan-sh",
    "@grpc/grpc-js",
    "@grpc/proto-loader",
  ],
  plugins: [lazyAjv, englishZod],
  // Bundled CommonJS (Ajv on first use, commander) calls require().
  banner: { js: 'import { createRequire as __termhiveCreateRequire } from "node:module"; const require = __termhiveCreateRequire(import.meta.url);' },
  logLevel: "warning",
  metafile: true,
  absWorkingDir: root,
  // Less to parse at every start (~10 ms); the linked source maps give readable stack
  // traces with NODE_OPTIONS=--enable-source-maps.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
});

// Stale chunks are removed after the new ones are written (not before), so a termhive
// started during a rebuild never finds its files missing.
const written = new Set(Object.keys(result.metafile.outputs).map((file) => join(root, file)));
for (const file of readdirSync(outdir)) if (!written.has(join(outdir, file))) rmSync(join(outdir, file));

// The dashboard's page (web/): one script and one stylesheet with xterm.js in them, served
// by `termhive serve` from dist/dashboard-web (nothing from a CDN: it works offline).
const webOut = join(root, "dist", "dashboard-web");
mkdirSync(webOut, { recursive: true });
await build({
  entryPoints: { app: join(root, "web", "main.ts") },
  outdir: webOut,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "chrome110",
  minify: true,
  logLevel: "warning",
  absWorkingDir: root,
});
copyFileSync(join(root, "web", "index.html"), join(webOut, "index.html"));
