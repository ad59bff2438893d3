// The page's files, built by scripts/bundle.mjs into dist/dashboard-web/ (no CDN: the
// dashboard works offline). Read once, on the first request, and kept in memory (~400 KB).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface Asset {
  body: Buffer;
  type: string;
}

const FILES: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/assets/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/assets/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
};

/** From the bundle (dist/bundle/) or from tsc's output (dist/src/dashboard/). */
function assetDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, "..", "dashboard-web"), join(here, "..", "..", "dashboard-web")].find((d) => existsSync(join(d, "index.html")));
}

let cache: Map<string, Asset> | undefined;

/** The asset at this path; undefined for an unknown path. Throws when the page was never built. */
export function asset(path: string): Asset | undefined {
  if (!cache) {
    const dir = assetDir();
    if (!dir) throw new Error("the dashboard's page is not built (dist/dashboard-web is missing): run npm run build");
    cache = new Map(Object.entries(FILES).map(([route, f]) => [route, { body: readFileSync(join(dir, f.file)), type: f.type }]));
  }
  return cache.get(path);
}
