/**
 * The seccomp filter that stops a submission from starting processes, below the language: a classic BPF
 * program (struct sock_filter[]) generated here, with no native dependency. It denies fork, vfork, clone without
 * CLONE_THREAD (threads keep working: node's own and func_timeout's), reaching into other processes (ptrace,
 * process_vm_readv/writev, pidfd_open), opening sockets and io_uring, and, in the strict variant, execve and execveat. clone3 answers ENOSYS, so glibc falls back to clone, whose flags a filter can read (clone3 passes them
 * in memory, which seccomp cannot inspect).
 *
 * Two variants, because bubblewrap applies a `--seccomp` filter before it execs the player's program:
 *   - 'no-fork' (given to bubblewrap): no new processes; execve stays allowed so bwrap can start node or python,
 *     and a later execve can only replace the player with another program inside the same sandbox, cgroup and
 *     filter (the filter survives exec and still forbids forking).
 *   - 'strict' (installed by the Python host on itself before student code loads): also no execve/execveat.
 *   - 'compile' (the sandboxed C++ compiler, cpp-build.ts): g++ must start cc1plus, as, collect2 and ld, so fork,
 *     clone and exec stay; what is refused is everything a compiler never needs (sockets, reaching into other
 *     processes, file metadata, memfd). Landlock decides which programs it may exec (the toolchain only).
 *   - 'spawner' (the same refusals): the Botzone spawner (native/botzone-spawner.c), which forks and execs a bot each
 *     turn inside its sandbox; the bot installs 'no-fork' with selfSignalsOnly on itself before exec, on top of it.
 * The first two are also used by the live probe (layers.ts), which proves them on this kernel before anything relies on them.
 *
 * Every variant also refuses what Landlock (ABI <= 7) does not govern: changing a file's mode, owner, times or
 * extended attributes (chmod, chown, utime families; every xattr call), and memfd_create/memfd_secret, whose pages
 * escape the address-space rlimit and every sized tmpfs. With `selfSignalsOnly` signals go only to the process
 * itself (kill, tkill, tgkill, rt_(tg)sigqueueinfo with a pid other than its own are refused; pidfd_send_signal
 * always): the program carries SELF_PID_PLACEHOLDER, which whoever installs it (the launcher, the C++ and Python
 * hosts) replaces with its own pid first — so it is only asked for where the installer is the process that runs.
 */

/** seccomp_data offsets: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]. */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const ARG0_LOW_OFFSET = 16; // little-endian: the low 32 bits of args[0] (clone's flags)

// BPF opcodes (linux/bpf_common.h).
const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;

// EPERM rather than a kill: the student's code gets a clear error ("Operation not permitted") it can report.
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_THREAD = 0x00010000;

interface ArchTable {
  audit: number;
  /** Syscall numbers; fork/vfork are absent on aarch64 (glibc uses clone there). */
  execve: number;
  execveat: number;
  fork?: number;
  vfork?: number;
  clone: number;
  clone3: number;
  /** Reaching into other processes: ptrace, process_vm_readv/writev, pidfd_open (signals by pidfd). */
  reach: number[];
  /**
   * No sockets of any family (socketpair stays: it reaches nobody) and no io_uring (whose socket and file operations
   * seccomp cannot see): without bubblewrap's network namespace this is what keeps UDP and unix-path sockets shut.
   */
  network: number[];
  /**
   * File metadata Landlock (ABI <= 7) does not govern: chmod, chown and utime families, every xattr call (the
   * *xattrat calls of Linux 6.13 too).
   */
  metadata: number[];
  /** memfd_create, memfd_secret: anonymous files whose pages no rlimit bounds. */
  memfd: number[];
  /** Signals by pid (arg 0: the pid or thread group): kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo. */
  signalByPid: number[];
  /** pidfd_send_signal: a pidfd names any process; refused with selfSignalsOnly. */
  pidfdSignal: number;
  /** x86_64's x32 ABI shares the arch value: its numbers carry this bit and are all refused. */
  x32Bit?: number;
}

const ARCHES: Record<string, ArchTable> = {
  x64: {
    audit: 0xc000003e, execve: 59, execveat: 322, fork: 57, vfork: 58, clone: 56, clone3: 435, reach: [101, 310, 311, 434], network: [41, 425, 426, 427],
    // chmod fchmod chown fchown lchown utime setxattr..fremovexattr utimes fchownat futimesat fchmodat utimensat fchmodat2 *xattrat
    metadata: [90, 91, 92, 93, 94, 132, ...range(188, 199), 235, 260, 261, 268, 280, 452, ...range(463, 466)],
    memfd: [319, 447],
    signalByPid: [62, 200, 234, 129, 297],
    pidfdSignal: 424,
    x32Bit: 0x40000000,
  },
  arm64: {
    audit: 0xc00000b7, execve: 221, execveat: 281, clone: 220, clone3: 435, reach: [117, 270, 271, 434], network: [198, 425, 426, 427],
    // setxattr..fremovexattr fchmod fchmodat fchownat fchown utimensat fchmodat2 *xattrat (no chmod/chown/utime(s) here)
    metadata: [...range(5, 16), 52, 53, 54, 55, 88, 452, ...range(463, 466)],
    memfd: [279, 447],
    signalByPid: [129, 130, 131, 138, 240],
    pidfdSignal: 424,
  },
};

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

export type SeccompVariant = 'no-fork' | 'strict' | 'compile' | 'spawner';

/** Variants under which processes may be started (the rest deny fork, vfork and clone without CLONE_THREAD). */
const MAY_START_PROCESSES: ReadonlySet<SeccompVariant> = new Set(['compile', 'spawner']);

/**
 * Stands for "my own pid" in a program built with selfSignalsOnly (no pid is this large: pid_max <= 2^22). The
 * installer replaces every BPF_JEQ|BPF_K instruction whose k is this value with its getpid().
 */
export const SELF_PID_PLACEHOLDER = 0x5e1f5e1f;

export interface SeccompOptions {
  /** Signals only to the process itself (the installer substitutes SELF_PID_PLACEHOLDER). */
  selfSignalsOnly?: boolean;
}

/** Whether this machine's architecture has a filter (x86_64 and aarch64 Linux). */
export function seccompSupported(): boolean {
  return process.platform === 'linux' && process.arch in ARCHES;
}

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/**
 * The filter as bytes (8 per instruction: u16 code, u8 jt, u8 jf, u32 k, little-endian), ready for bubblewrap's
 * `--seccomp FD` or prctl(PR_SET_SECCOMP). Throws on an architecture without a table.
 */
export function seccompProgram(variant: SeccompVariant, arch: string = process.arch, options: SeccompOptions = {}): Buffer {
  const table = ARCHES[arch];
  if (!table) throw new Error(`no seccomp filter for ${arch}`);
  const processes = MAY_START_PROCESSES.has(variant) ? [] : [table.fork, table.vfork];
  const denied = [
    ...processes,
    ...table.reach,
    ...table.network,
    ...table.metadata,
    ...table.memfd,
    ...(options.selfSignalsOnly ? [table.pidfdSignal] : []),
    ...(variant === 'strict' ? [table.execve, table.execveat] : []),
  ].filter((nr): nr is number => nr !== undefined);
  type Label = 'deny' | 'enosys' | 'clone' | 'signal';
  // Instructions with symbolic forward jumps, resolved once every label's place is known.
  const program: (Instruction & { to?: Label; branch?: 'jt' | 'jf' })[] = [];
  const labels: Partial<Record<Label, number>> = {};
  const emit = (code: number, k: number, to?: Label, branch?: 'jt' | 'jf'): void => {
    program.push({ code, jt: 0, jf: 0, k, to, branch });
  };
  emit(BPF_LD_W_ABS, ARCH_OFFSET);
  emit(BPF_JEQ_K, table.audit, 'deny', 'jf'); // a foreign ABI (e.g. i386 through int 0x80) is refused whole
  emit(BPF_LD_W_ABS, NR_OFFSET);
  if (table.x32Bit) emit(BPF_JGE_K, table.x32Bit, 'deny', 'jt');
  for (const nr of denied) emit(BPF_JEQ_K, nr, 'deny', 'jt');
  if (!MAY_START_PROCESSES.has(variant)) {
    emit(BPF_JEQ_K, table.clone3, 'enosys', 'jt');
    emit(BPF_JEQ_K, table.clone, 'clone', 'jt');
  }
  if (options.selfSignalsOnly) for (const nr of table.signalByPid) emit(BPF_JEQ_K, nr, 'signal', 'jt');
  emit(BPF_RET_K, SECCOMP_RET_ALLOW);
  if (!MAY_START_PROCESSES.has(variant)) {
    labels.clone = program.length;
    emit(BPF_LD_W_ABS, ARG0_LOW_OFFSET);
    emit(BPF_JSET_K, CLONE_THREAD, 'deny', 'jf'); // a thread: fall through to ALLOW
    emit(BPF_RET_K, SECCOMP_RET_ALLOW);
  }
  if (options.selfSignalsOnly) {
    // The pid (or thread group) in arg 0, as the kernel reads it (an int: the low 32 bits): only the caller's own.
    labels.signal = program.length;
    emit(BPF_LD_W_ABS, ARG0_LOW_OFFSET);
    emit(BPF_JEQ_K, SELF_PID_PLACEHOLDER, 'deny', 'jf');
    emit(BPF_RET_K, SECCOMP_RET_ALLOW);
  }
  labels.deny = program.length;
  emit(BPF_RET_K, SECCOMP_RET_ERRNO | EPERM);
  labels.enosys = program.length;
  emit(BPF_RET_K, SECCOMP_RET_ERRNO | ENOSYS);
  program.forEach((instruction, at) => {
    if (!instruction.to || !instruction.branch) return;
    if (labels[instruction.to] === undefined) throw new Error(`seccomp program layout error: no ${instruction.to}`);
    const offset = (labels[instruction.to] as number) - at - 1;
    if (offset < 0 || offset > 255) throw new Error('seccomp program layout error');
    instruction[instruction.branch] = offset;
  });
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, i) => {
    bytes.writeUInt16LE(instruction.code, i * 8);
    bytes.writeUInt8(instruction.jt, i * 8 + 2);
    bytes.writeUInt8(instruction.jf, i * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, i * 8 + 4);
  });
  return bytes;
}
