import { lstatSync, readlinkSync } from "node:fs"
import { prlimitOptions, type SandboxLimits } from "./limits.ts"

/** Where the package's directory appears inside the sandbox (read-only). */
export const SANDBOX_APP_DIRECTORY = "/app"
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
export const SANDBOX_HOME = "/tmp"

/** The top-level system directories besides /usr: symbolic links on a merged-/usr system, bound read-only otherwise. */
const SYSTEM_ROOTS = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]
/** The few parts of /etc a program needs to start: the dynamic linker's cache and Debian's alternatives (/usr/bin/awk → /etc/alternatives/awk). */
const ETC_FILES = ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime"]

const systemRoots = (): ReadonlyArray<string> =>
  SYSTEM_ROOTS.flatMap((name) => {
    const path = `/${name}`
    try {
      const stat = lstatSync(path)
      if (stat.isSymbolicLink()) return ["--symlink", readlinkSync(path), path]
      return stat.isDirectory() ? ["--ro-bind", path, path] : []
    } catch {
      return []
    }
  })

export interface SandboxInvocation {
  /** The host directory shown read-only at /app. */
  readonly directory: string
  /** The program, as a path inside the sandbox. */
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly limits: SandboxLimits
}

/**
 * bubblewrap's arguments: every namespace unshared (no network: only a loopback that is down; no host pids),
 * no user namespaces inside, an empty environment but PATH and HOME, a new session, killed with its parent;
 * a root of its own that is read-only, with /usr (and the merged-/usr links) and a few files of /etc bound
 * read-only, a minimal read-only /dev (with a private, size-capped /dev/shm), its own /proc, the package read-only at /app and a private, size-capped tmpfs at /tmp;
 * then prlimit sets the resource limits and runs the command.
 */
export const bwrapArguments = ({ args, command, directory, limits }: SandboxInvocation): ReadonlyArray<string> => [
  "--unshare-all",
  "--unshare-user",
  "--disable-userns",
  "--cap-drop", "ALL",
  "--die-with-parent",
  "--new-session",
  "--clearenv",
  "--setenv", "PATH", SANDBOX_PATH,
  "--setenv", "HOME", SANDBOX_HOME,
  "--hostname", "sandbox",
  "--ro-bind", "/usr", "/usr",
  ...systemRoots(),
  ...ETC_FILES.flatMap((path) => ["--ro-bind-try", path, path]),
  "--dev", "/dev",
  "--size", String(limits.tmpBytes),
  "--tmpfs", "/dev/shm",
  "--remount-ro", "/dev",
  "--proc", "/proc",
  "--ro-bind", directory, SANDBOX_APP_DIRECTORY,
  "--size", String(limits.tmpBytes),
  "--tmpfs", "/tmp",
  "--remount-ro", "/",
  "--chdir", SANDBOX_APP_DIRECTORY,
  "--",
  "/usr/bin/prlimit",
  ...prlimitOptions(limits),
  "--",
  command,
  ...args
]
