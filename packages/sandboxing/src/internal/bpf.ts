// Classic BPF as seccomp uses it: a tiny assembler with forward labels, the byte encoding of
// `struct sock_filter`, and a decoder + interpreter so tests can run a program against syscalls.

/** `BPF_LD | BPF_W | BPF_ABS`: load a 32-bit word of `struct seccomp_data`. */
export const BPF_LD_W_ABS = 0x20;
/** `BPF_JMP | BPF_JEQ | BPF_K`. */
export const BPF_JEQ_K = 0x15;
/** `BPF_JMP | BPF_JGE | BPF_K`. */
export const BPF_JGE_K = 0x35;
/** `BPF_RET | BPF_K`. */
export const BPF_RET_K = 0x06;

/** One decoded `struct sock_filter`. */
export interface BpfInstruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** A jump target: an instruction index resolved when the program is assembled. */
export type Label = string;

type Pending =
  | { readonly kind: 'plain'; readonly insn: BpfInstruction }
  | { readonly kind: 'jump'; readonly code: number; readonly k: number; readonly jt: Label | 0; readonly jf: Label | 0 };

/** Builds a program; jumps may only go forward (classic BPF has no backward jumps). */
export class BpfAssembler {
  private readonly pending: Pending[] = [];
  private readonly labels = new Map<Label, number>();

  /** Marks the next instruction as `label`. */
  label(label: Label): this {
    if (this.labels.has(label)) throw new Error(`BPF label '${label}' defined twice`);
    this.labels.set(label, this.pending.length);
    return this;
  }

  /** Loads the 32-bit word at `offset` of `struct seccomp_data`. */
  load(offset: number): this {
    this.pending.push({ kind: 'plain', insn: { code: BPF_LD_W_ABS, jt: 0, jf: 0, k: offset } });
    return this;
  }

  /** `if (A == k) goto jt else goto jf`; `0` means the next instruction. */
  jumpIfEqual(k: number, jt: Label | 0, jf: Label | 0): this {
    this.pending.push({ kind: 'jump', code: BPF_JEQ_K, k, jt, jf });
    return this;
  }

  /** `if (A >= k) goto jt else goto jf`. */
  jumpIfAtLeast(k: number, jt: Label | 0, jf: Label | 0): this {
    this.pending.push({ kind: 'jump', code: BPF_JGE_K, k, jt, jf });
    return this;
  }

  /** Returns `value` as the filter's verdict. */
  ret(value: number): this {
    this.pending.push({ kind: 'plain', insn: { code: BPF_RET_K, jt: 0, jf: 0, k: value } });
    return this;
  }

  /** The encoded program: 8 bytes per instruction, little-endian, as the kernel reads it. */
  assemble(): Uint8Array {
    const resolve = (from: number, target: Label | 0): number => {
      if (target === 0) return 0;
      const index = this.labels.get(target);
      if (index === undefined) throw new Error(`BPF label '${target}' is not defined`);
      const offset = index - from - 1;
      if (offset < 0 || offset > 255) throw new Error(`BPF jump to '${target}' is out of range (${offset})`);
      return offset;
    };
    const instructions = this.pending.map((entry, index): BpfInstruction =>
      entry.kind === 'plain' ? entry.insn : { code: entry.code, k: entry.k, jt: resolve(index, entry.jt), jf: resolve(index, entry.jf) },
    );
    return encodeBpf(instructions);
  }
}

/** Encodes instructions as `struct sock_filter[]`. */
export function encodeBpf(instructions: readonly BpfInstruction[]): Uint8Array {
  const bytes = new Uint8Array(instructions.length * 8);
  const view = new DataView(bytes.buffer);
  instructions.forEach((insn, index) => {
    view.setUint16(index * 8, insn.code, true);
    view.setUint8(index * 8 + 2, insn.jt);
    view.setUint8(index * 8 + 3, insn.jf);
    view.setUint32(index * 8 + 4, insn.k >>> 0, true);
  });
  return bytes;
}

/** Decodes `struct sock_filter[]`. */
export function decodeBpf(bytes: Uint8Array): BpfInstruction[] {
  if (bytes.length % 8 !== 0) throw new Error(`a BPF program is a multiple of 8 bytes, got ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: BpfInstruction[] = [];
  for (let offset = 0; offset < bytes.length; offset += 8) {
    out.push({ code: view.getUint16(offset, true), jt: view.getUint8(offset + 2), jf: view.getUint8(offset + 3), k: view.getUint32(offset + 4, true) });
  }
  return out;
}

/** The fields of `struct seccomp_data` a filter may look at. */
export interface SeccompData {
  readonly nr: number;
  readonly arch: number;
  readonly args: readonly bigint[];
}

/** Runs a decoded program on one syscall, as the kernel would; returns the verdict. */
export function runBpf(program: readonly BpfInstruction[], data: SeccompData): number {
  const memory = new DataView(new ArrayBuffer(64));
  memory.setInt32(0, data.nr, true);
  memory.setUint32(4, data.arch, true);
  data.args.slice(0, 6).forEach((arg, index) => memory.setBigUint64(16 + index * 8, BigInt.asUintN(64, arg), true));
  let accumulator = 0;
  for (let pc = 0; pc < program.length; pc += 1) {
    const insn = program[pc]!;
    switch (insn.code) {
      case BPF_LD_W_ABS:
        if (insn.k % 4 !== 0 || insn.k + 4 > 64) throw new Error(`bad load offset ${insn.k} at ${pc}`);
        accumulator = memory.getUint32(insn.k, true);
        break;
      case BPF_JEQ_K:
        pc += accumulator === insn.k ? insn.jt : insn.jf;
        break;
      case BPF_JGE_K:
        pc += accumulator >= insn.k ? insn.jt : insn.jf;
        break;
      case BPF_RET_K:
        return insn.k;
      default:
        throw new Error(`unsupported BPF opcode 0x${insn.code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('BPF program fell off its end');
}
