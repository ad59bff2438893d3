// Loaded into the server by `npm run bench startup` (node --import): writes the process's CPU
// time (user + system, ms) at the moment its first tool list (or its answer to a 2026
// client's server/discover, bench/eras.ts) is written to stdout, to the
// file named by TERMHIVE_BENCH_CPU_FILE. Read from outside, the figure would also count what
// the server does after answering (composing its root) before the client gets to look.
import { writeFileSync } from "node:fs";

const file = process.env.TERMHIVE_BENCH_CPU_FILE;
if (file) {
  const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  let done = false;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!done && /"tools":\[|"supportedVersions":\[/.test(String(chunk))) {
      done = true;
      const { user, system } = process.cpuUsage();
      writeFileSync(file, String((user + system) / 1000));
    }
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
}
