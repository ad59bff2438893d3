// Hosts with sessions, kept in the local home so a restarted termhive knows where to look.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class RememberedHosts {
  private readonly file: string;

  constructor(home: string) {
    this.file = join(home, "remote-hosts");
  }

  /** Read each time: another termhive process on this home may have added one since. */
  all(): Set<string> {
    let text = "";
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      // none yet
    }
    return new Set(text.split("\n").map((l) => l.trim()).filter(Boolean));
  }

  remember(host: string): void {
    const hosts = this.all();
    if (hosts.has(host)) return;
    hosts.add(host);
    this.save(hosts);
  }

  forget(host: string): void {
    const hosts = this.all();
    if (hosts.delete(host)) this.save(hosts);
  }

  private save(hosts: Set<string>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, [...hosts].map((h) => h + "\n").join(""), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
