// The seccomp filter every local sandbox starts under (bwrap --seccomp): a classic BPF program,
// written here as bytes so no compiler or prebuilt binary is needed. It refuses, with EPERM:
// - socket(AF_UNIX, …): `--ro-bind / /` does not stop connect() on a socket file, so without this
//   a pane reaches any tmux server, docker.sock or D-Bus it can see. socketpair() stays allowed
//   (a connected pair reaches nothing outside).
// - ioctl(TIOCSTI) and ioctl(TIOCLINUX): typing into its own pane's terminal input, which the
//   shell or an agent outside the sandbox then reads. Job control needs neither, so the pane
//   keeps its controlling terminal (bwrap's --new-session would close TIOCSTI but lose `fg`, ^Z).
// - io_uring_setup: its operations (socket creation among them) bypass seccomp.
// - every system call of another ABI (x32, 32-bit compat): their numbers differ, and a 32-bit
//   program could open a unix socket through socketcall(). 32-bit programs do not run inside.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Abi {
  auditArch: number;
  socket: number;
  ioctl: number;
  ioUringSetup: number;
  /** x86_64 also accepts x32 calls (numbers with this bit) under the same audit arch. */
  x32Bit?: number;
}

const ABIS: Partial<Record<NodeJS.Architecture, Abi>> = {
  x64: { auditArch: 0xc000003e, socket: 41, ioctl: 16, ioUringSetup: 425, x32Bit: 0x40000000 },
  arm64: { auditArch: 0xc00000b7, socket: 198, ioctl: 29, ioUringSetup: 425 },
};

const AF_UNIX = 1;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const EPERM = 1;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

// struct seccomp_data: nr (u32 at 0), arch (u32 at 4), ip (u64 at 8), args[6] (u64 at 16 + 8i).
// The low half of an argument is at its own offset on the little-endian machines listed above;
// the kernel reads socket()'s domain and ioctl()'s request as 32-bit values, so the low half is
// the whole of what it acts on.
const NR = 0;
const ARCH = 4;
const arg = (i: number) => 16 + 8 * i;

const LD_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET = 0x06; // BPF_RET | BPF_K

type Insn = [code: number, jt: number, jf: number, k: number];

/** unixSockets: the policy allows unix sockets (its `unix_sockets: "allow"`); the rest of the filter holds. */
export interface FilterOptions {
  unixSockets?: boolean;
}

function program(abi: Abi, options: FilterOptions): Insn[] {
  // Jumps are relative: labels resolved once the list is complete.
  const p: (Insn | { jumpTo: string; code: number; k: number; onTrue: boolean })[] = [];
  const labels = new Map<string, number>();
  const label = (name: string) => labels.set(name, p.length);
  const ld = (offset: number) => p.push([LD_ABS, 0, 0, offset]);
  const ifEq = (k: number, to: string) => p.push({ jumpTo: to, code: JEQ, k, onTrue: true });
  const ifGe = (k: number, to: string) => p.push({ jumpTo: to, code: JGE, k, onTrue: true });
  const ret = (k: number) => p.push([RET, 0, 0, k]);

  ld(ARCH);
  p.push({ jumpTo: "deny", code: JEQ, k: abi.auditArch, onTrue: false });
  ld(NR);
  if (abi.x32Bit) ifGe(abi.x32Bit, "deny");
  if (!options.unixSockets) ifEq(abi.socket, "socket");
  ifEq(abi.ioctl, "ioctl");
  ifEq(abi.ioUringSetup, "deny");
  ret(RET_ALLOW);
  label("socket");
  ld(arg(0));
  ifEq(AF_UNIX, "deny");
  ret(RET_ALLOW);
  label("ioctl");
  ld(arg(1));
  ifEq(TIOCSTI, "deny");
  ifEq(TIOCLINUX, "deny");
  ret(RET_ALLOW);
  label("deny");
  ret(RET_ERRNO | EPERM);

  return p.map((insn, at) => {
    if (Array.isArray(insn)) return insn;
    const offset = labels.get(insn.jumpTo)! - at - 1;
    return insn.onTrue ? [insn.code, offset, 0, insn.k] : [insn.code, 0, offset, insn.k];
  });
}

/** The filter as bwrap reads it (struct sock_filter[], host byte order), or null on an architecture without one. */
export function seccompFilter(arch: NodeJS.Architecture = process.arch, options: FilterOptions = {}): Buffer | null {
  const abi = ABIS[arch];
  if (!abi) return null;
  const insns = program(abi, options);
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

/**
 * The filter's file under TERMHIVE_HOME (hidden inside the sandbox; bwrap reads it before), written
 * whole each launch so a half-written file from a crash is never loaded. Null: no filter here.
 */
export function seccompFilterFile(termhiveHome: string, options: FilterOptions = {}, arch: NodeJS.Architecture = process.arch): string | null {
  const bytes = seccompFilter(arch, options);
  if (!bytes) return null;
  const dir = join(termhiveHome, "sandbox");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `seccomp-${arch}${options.unixSockets ? "-unix" : ""}.bpf`);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, bytes, { mode: 0o600 });
  renameSync(temp, file);
  return file;
}

/** The file descriptor the filter is given to bwrap on (see launch.ts). */
export const SECCOMP_FD = 9;
