// Whether a process on this machine still runs, asked without touching it.

/** Signal 0 checks existence only; EPERM means it runs under another user. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
