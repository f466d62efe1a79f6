// The seccomp program handed to bubblewrap (`--seccomp FD`): the second wall behind the network
// namespace. Assembled here as classic BPF, so no native addon or libseccomp is needed.
import { BpfAssembler } from './internal/bpf.js';
import { SandboxUnavailableError } from './sandbox-error.js';

/**
 * `restricted`: only `AF_UNIX` sockets may be created (socket, socketpair) and io_uring is refused.
 * `vsock-only`: network allowed, but `AF_VSOCK` (host services outside the sandbox) and io_uring refused.
 */
export type SeccompNetworkMode = 'restricted' | 'vsock-only';

/** Verdicts (`SECCOMP_RET_*`). */
export const SECCOMP_RET_ALLOW = 0x7fff0000;
/** `SECCOMP_RET_ERRNO` with `EPERM` (1). */
export const SECCOMP_RET_EPERM = 0x00050000 | 1;

/** Address families the filter names. */
export const AF_UNIX = 1;
/** `AF_VSOCK`. */
export const AF_VSOCK = 40;

/** Per-architecture audit id and the syscall numbers the filter names. */
export interface SeccompArchitecture {
  readonly auditArch: number;
  readonly socket: number;
  readonly socketpair: number;
  readonly ioUring: readonly number[];
  /** Syscall numbers at or above this belong to another ABI on the same arch (x32). */
  readonly foreignAbiBase?: number;
}

/** The architectures Node runs on that the filter supports, keyed by `process.arch`. */
export const SECCOMP_ARCHITECTURES: Readonly<Partial<Record<NodeJS.Architecture, SeccompArchitecture>>> = {
  x64: { auditArch: 0xc000003e, socket: 41, socketpair: 53, ioUring: [425, 426, 427], foreignAbiBase: 0x40000000 },
  arm64: { auditArch: 0xc00000b7, socket: 198, socketpair: 199, ioUring: [425, 426, 427] },
};

// struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6].
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
// Low 32 bits of args[0] on these little-endian architectures: the address family.
const OFFSET_ARG0_LOW = 16;

/**
 * The filter as `struct sock_filter[]` bytes. Syscalls from another ABI (i386 via `int 0x80`, x32) get
 * EPERM wholesale: their socket numbers differ, so letting them through would open a side door.
 */
export function buildSeccompFilter(mode: SeccompNetworkMode, arch: NodeJS.Architecture): Uint8Array {
  const table = SECCOMP_ARCHITECTURES[arch];
  if (table === undefined) {
    throw new SandboxUnavailableError('UnsupportedArchitecture', `the seccomp network filter has no syscall table for '${arch}'`, 'Run on x86-64 or arm64, or allow network access for this command');
  }
  const asm = new BpfAssembler();
  asm.load(OFFSET_ARCH).jumpIfEqual(table.auditArch, 0, 'deny');
  asm.load(OFFSET_NR);
  if (table.foreignAbiBase !== undefined) asm.jumpIfAtLeast(table.foreignAbiBase, 'deny', 0);
  asm.jumpIfEqual(table.socket, 'family', 0).jumpIfEqual(table.socketpair, 'family', 0);
  for (const nr of table.ioUring) asm.jumpIfEqual(nr, 'deny', 0);
  asm.ret(SECCOMP_RET_ALLOW);
  asm.label('family').load(OFFSET_ARG0_LOW);
  if (mode === 'restricted') asm.jumpIfEqual(AF_UNIX, 'allow', 'deny');
  else asm.jumpIfEqual(AF_VSOCK, 'deny', 'allow');
  asm.label('allow').ret(SECCOMP_RET_ALLOW);
  asm.label('deny').ret(SECCOMP_RET_EPERM);
  return asm.assemble();
}
