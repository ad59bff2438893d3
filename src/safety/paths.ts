// Which paths a rule protects: the root, top-level system directories, a home, the current
// or parent directory, everything (*), and block devices.

const TOP_LEVEL_DIRS = [
  "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt", "proc",
  "root", "run", "sbin", "snap", "srv", "sys", "usr", "var",
  "System", "Library", "Applications", "Users", "Volumes", "private", // macOS
];
const TOP_LEVEL = new RegExp(`^/(${TOP_LEVEL_DIRS.join("|")})$`);

/** `//usr/./` → `/usr`; trailing `/` and `/.` dropped, but `/` stays `/`. */
function normalizePath(path: string): string {
  let p = path.replace(/\/{2,}/g, "/").replace(/\/\.(?=\/|$)/g, "");
  while (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p === "" && path.startsWith("/") ? "/" : p;
}

/** The root, a top-level system directory, or everything in one of them. */
export function isSystemPath(target: string): boolean {
  const p = normalizePath(target.replace(/\/\*$/, "/"));
  return p === "/" || p === "/*" || TOP_LEVEL.test(p);
}

/** Paths whose recursive deletion loses a home, a project or a system. */
export function isCriticalDeleteTarget(target: string): boolean {
  if (isSystemPath(target)) return true;
  const p = normalizePath(target);
  const home = /^(~|\$HOME)(\/\*|\/\.\*)?$/;
  const here = /^(\.|\.\.)(\/\*|\/\.\*)?$/;
  return home.test(p) || here.test(p) || p === "*" || p === ".*" || p === "./*" || p === "../*";
}

const BLOCK_DEVICE =
  /^\/dev\/(sd[a-z]+\d*|hd[a-z]\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+n\d+(p\d+)?|mmcblk\d+(p\d+)?|md\d+|dm-\d+|loop\d+|sr\d+|r?disk\d+(s\d+)*|mapper\/.+|disk\/by-[a-z]+\/.+)$/;
export const isBlockDevice = (path: string): boolean => BLOCK_DEVICE.test(normalizePath(path));

