/** What one sandboxed command may use. */
export interface SandboxLimits {
  /** CPU time (RLIMIT_CPU): past it the command gets SIGXCPU. Default 10. */
  readonly cpuSeconds: number
  /** Address space (RLIMIT_AS). Default 1 GiB. */
  readonly memoryBytes: number
  /** Processes of the sandbox's user (RLIMIT_NPROC): what stops a fork bomb. Default 64. */
  readonly processes: number
  /** Largest file it may write (RLIMIT_FSIZE). Default 16 MiB. */
  readonly fileSizeBytes: number
  /** Open file descriptors (RLIMIT_NOFILE). Default 256. */
  readonly openFiles: number
  /** Size of its private /tmp (a tmpfs). Default 16 MiB. */
  readonly tmpBytes: number
  /** Wall-clock time before the whole sandbox is killed. Default 10 s. */
  readonly timeoutMillis: number
  /** Bytes kept of stdout and of stderr each; the rest is read and dropped. Default 64 KiB. */
  readonly outputBytes: number
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuSeconds: 10,
  memoryBytes: 1024 * 1024 * 1024,
  processes: 64,
  fileSizeBytes: 16 * 1024 * 1024,
  openFiles: 256,
  tmpBytes: 16 * 1024 * 1024,
  timeoutMillis: 10_000,
  outputBytes: 64 * 1024
}

/** prlimit's options for these limits (soft and hard alike, so the command cannot raise them; no core files). */
export const prlimitOptions = (limits: SandboxLimits): ReadonlyArray<string> => [
  `--cpu=${limits.cpuSeconds}`,
  `--as=${limits.memoryBytes}`,
  `--nproc=${limits.processes}`,
  `--fsize=${limits.fileSizeBytes}`,
  `--nofile=${limits.openFiles}`,
  "--core=0"
]
