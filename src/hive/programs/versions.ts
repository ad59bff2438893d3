// Which agent program versions a profile was checked against, and whether an installed one is
// newer: TUIs change their screens and hooks between releases (Codex 0.169 added a start-up
// menu and a title thread; Claude Code 2.1.3xx a start-up dialog), so `termhive doctor` says
// when the installed program is newer than what the profile knows.
import type { AgentProfile } from "./profiles.js";

/** The first dotted version in a program's `--version` output ("2.1.332 (Claude Code)", "codex-cli 0.169.0"). */
export function parseVersion(output: string): string | null {
  return /\b(\d+\.\d+(?:\.\d+)*)\b/.exec(output)?.[1] ?? null;
}

/** Numeric comparison of dotted versions: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export interface VersionVerdict {
  /** The installed version is one the profile was checked against, or older than the newest. */
  known: boolean;
  newestChecked: string | null;
  note: string;
}

export function judgeVersion(profile: Pick<AgentProfile, "name" | "checkedVersions">, installed: string): VersionVerdict {
  const newest = [...profile.checkedVersions].sort(compareVersions).at(-1) ?? null;
  if (newest === null) return { known: false, newestChecked: null, note: `the ${profile.name} profile names no checked version` };
  if (compareVersions(installed, newest) > 0) {
    return { known: false, newestChecked: newest, note: `newer than the ${profile.name} profile knows (checked against ${profile.checkedVersions.join(", ")}): its dialogs or hooks may have changed; check its status in the hive` };
  }
  return { known: true, newestChecked: newest, note: `the ${profile.name} profile was checked against ${profile.checkedVersions.join(", ")}` };
}
