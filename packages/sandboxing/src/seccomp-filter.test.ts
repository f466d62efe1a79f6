// The seccomp program decoded and executed instruction by instruction against a decision table.
import { describe, expect, it } from 'vitest';
import { BPF_JEQ_K, BPF_LD_W_ABS, BPF_RET_K, decodeBpf, runBpf } from './internal/bpf.js';
import { AF_UNIX, AF_VSOCK, SECCOMP_ARCHITECTURES, SECCOMP_RET_ALLOW, SECCOMP_RET_EPERM, buildSeccompFilter } from './seccomp-filter.js';

const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const AUDIT_ARCH_I386 = 0x40000003;

for (const arch of ['x64', 'arm64'] as const) {
  const table = SECCOMP_ARCHITECTURES[arch]!;
  const call = (nr: number, arg0 = 0n, auditArch = table.auditArch): { nr: number; arch: number; args: bigint[] } => ({ nr, arch: auditArch, args: [arg0, 0n, 0n, 0n, 0n, 0n] });

  describe(`seccomp filter on ${arch}`, () => {
    const restricted = decodeBpf(buildSeccompFilter('restricted', arch));
    const vsockOnly = decodeBpf(buildSeccompFilter('vsock-only', arch));

    it('uses only loads, equality/≥ jumps and returns, and every load reads a seccomp_data word', () => {
      for (const insn of restricted) {
        expect([BPF_LD_W_ABS, BPF_JEQ_K, 0x35, BPF_RET_K]).toContain(insn.code);
        if (insn.code === BPF_LD_W_ABS) expect([0, 4, 16]).toContain(insn.k);
      }
      expect(restricted.at(-1)).toEqual({ code: BPF_RET_K, jt: 0, jf: 0, k: SECCOMP_RET_EPERM });
    });

    it.each([
      ['socket(AF_UNIX)', table.socket, BigInt(AF_UNIX), SECCOMP_RET_ALLOW],
      ['socket(AF_INET)', table.socket, BigInt(AF_INET), SECCOMP_RET_EPERM],
      ['socket(AF_INET6)', table.socket, BigInt(AF_INET6), SECCOMP_RET_EPERM],
      ['socket(AF_NETLINK)', table.socket, BigInt(AF_NETLINK), SECCOMP_RET_EPERM],
      ['socket(AF_VSOCK)', table.socket, BigInt(AF_VSOCK), SECCOMP_RET_EPERM],
      ['socket(AF_UNIX | high garbage)', table.socket, (1n << 32n) | BigInt(AF_UNIX), SECCOMP_RET_ALLOW],
      ['socketpair(AF_UNIX)', table.socketpair, BigInt(AF_UNIX), SECCOMP_RET_ALLOW],
      ['socketpair(AF_INET)', table.socketpair, BigInt(AF_INET), SECCOMP_RET_EPERM],
      ['io_uring_setup', 425, 0n, SECCOMP_RET_EPERM],
      ['io_uring_enter', 426, 0n, SECCOMP_RET_EPERM],
      ['io_uring_register', 427, 0n, SECCOMP_RET_EPERM],
      ['read', arch === 'x64' ? 0 : 63, 0n, SECCOMP_RET_ALLOW],
      ['connect', arch === 'x64' ? 42 : 203, 0n, SECCOMP_RET_ALLOW],
    ])('restricted: %s', (_name, nr, arg0, verdict) => {
      expect(runBpf(restricted, call(nr, arg0))).toBe(verdict);
    });

    it('refuses syscalls made through another ABI', () => {
      expect(runBpf(restricted, call(table.socket, BigInt(AF_UNIX), AUDIT_ARCH_I386))).toBe(SECCOMP_RET_EPERM);
      expect(runBpf(restricted, call(0, 0n, AUDIT_ARCH_I386))).toBe(SECCOMP_RET_EPERM);
      if (table.foreignAbiBase !== undefined) expect(runBpf(restricted, call(table.foreignAbiBase + table.socket, BigInt(AF_UNIX)))).toBe(SECCOMP_RET_EPERM);
    });

    it('with network allowed, refuses only AF_VSOCK and io_uring', () => {
      expect(runBpf(vsockOnly, call(table.socket, BigInt(AF_INET)))).toBe(SECCOMP_RET_ALLOW);
      expect(runBpf(vsockOnly, call(table.socket, BigInt(AF_INET6)))).toBe(SECCOMP_RET_ALLOW);
      expect(runBpf(vsockOnly, call(table.socket, BigInt(AF_UNIX)))).toBe(SECCOMP_RET_ALLOW);
      expect(runBpf(vsockOnly, call(table.socket, BigInt(AF_VSOCK)))).toBe(SECCOMP_RET_EPERM);
      expect(runBpf(vsockOnly, call(table.socketpair, BigInt(AF_VSOCK)))).toBe(SECCOMP_RET_EPERM);
      expect(runBpf(vsockOnly, call(425))).toBe(SECCOMP_RET_EPERM);
    });
  });
}

describe('buildSeccompFilter', () => {
  it('refuses an architecture it has no syscall table for', () => {
    expect(() => buildSeccompFilter('restricted', 'ia32')).toThrow(expect.objectContaining({ code: 'UnsupportedArchitecture' }) as Error);
  });
});
