import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { detectRunner, extractToFreshDirectory, packTarGz, runSandboxed, type SandboxLimits } from "../src/index.ts"

/** A package of shell scripts, unpacked as the registry unpacks uploads. */
const packageOf = (scripts: Record<string, string>) =>
  Effect.flatMap(
    Effect.promise(() =>
      packTarGz(Object.entries(scripts).map(([name, body]) => ({ name, content: `#!/bin/sh\n${body}\n`, mode: 0o755 })))
    ),
    (archive) => extractToFreshDirectory(archive)
  )

/** Runs /app/<script> with a token no other process carries, to find what it left behind. */
const run = (directory: string, script: string, limits: Partial<SandboxLimits> = {}) => {
  const token = `token-${randomUUID()}`
  return Effect.map(
    runSandboxed({ directory, command: `/app/${script}`, args: [token], limits: { timeoutMillis: 5000, ...limits } }),
    (result) => ({ ...result, token })
  )
}

/** Host processes whose command line carries the token. */
const processesWith = (token: string) =>
  readdirSync("/proc").filter((entry) => {
    if (!/^\d+$/.test(entry)) return false
    try {
      return readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(token)
    } catch {
      return false
    }
  })

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe("ESRCH")
    return false
  }
}

const hostStillForks = () => expect(spawnSync("/bin/sh", ["-c", "echo ok"]).stdout.toString()).toBe("ok\n")

describe("runSandboxed", () => {
  it.live("bubblewrap runs here (the registry answers 503 where it does not)", () =>
    Effect.map(detectRunner, (status) => expect(status).toEqual({ available: true })))

  it.scopedLive("the command gets an empty environment but PATH and HOME, and its own /tmp", () =>
    Effect.gen(function*() {
      const { directory } = yield* packageOf({ "env.sh": "env | sort; echo here > /tmp/file && cat /tmp/file; exit 3" })
      const result = yield* run(directory, "env.sh")
      expect(result).toMatchObject({ exit_code: 3, timed_out: false, signal: null, stderr: "" })
      expect(result.stdout).toBe("HOME=/tmp\nPATH=/usr/local/bin:/usr/bin:/bin\nPWD=/app\nhere\n")
    }))

  it.scopedLive("a package that tries the network reaches nothing, not even the host's loopback", () =>
    Effect.gen(function*() {
      let connections = 0
      let connected: () => void = () => {}
      const hostConnection = new Promise<void>((resolve) => (connected = resolve))
      const server = createServer((socket) => {
        connections += 1
        connected()
        socket.end()
      })
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
        () => Effect.sync(() => void server.close())
      )
      const port = (server.address() as { port: number }).port
      const { directory } = yield* packageOf({
        "net.sh": [
          `if bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' 2>/dev/null; then echo "tcp: connected"; else echo "tcp: refused"; fi`,
          "if getent hosts example.com >/dev/null; then echo \"dns: resolved\"; else echo \"dns: failed\"; fi",
          "cat /sys/class/net/*/operstate 2>/dev/null | sort | tr '\\n' ' '"
        ].join("\n")
      })
      const result = yield* run(directory, "net.sh")
      expect(result.stdout).toContain("tcp: refused")
      expect(result.stdout).toContain("dns: failed")
      expect(connections).toBe(0)
      // The same connection from the host goes through: the port was there to reach.
      const socket = connect(port, "127.0.0.1")
      yield* Effect.promise(() => hostConnection)
      socket.destroy()
      expect(connections).toBe(1)
    }))

  it.scopedLive("a package that writes outside its directory is refused everywhere, and the host is untouched", () =>
    Effect.gen(function*() {
      const name = `written-${randomUUID()}`
      const { directory } = yield* packageOf({
        "write.sh": [
          `for target in /etc/${name} /usr/${name} /${name} /app/${name} /app/write.sh /dev/${name}; do`,
          "  if (echo pwned > \"$target\") 2>/dev/null; then echo \"$target: written\"; else echo \"$target: refused\"; fi",
          "done",
          `echo marker > /tmp/${name} && echo "/tmp: written to its own"`
        ].join("\n")
      })
      const before = readFileSync(join(directory, "write.sh"), "utf8")
      const result = yield* run(directory, "write.sh")
      expect(result.exit_code).toBe(0)
      for (const target of [`/etc/${name}`, `/usr/${name}`, `/${name}`, `/app/${name}`, "/app/write.sh", `/dev/${name}`]) {
        expect(result.stdout).toContain(`${target}: refused`)
      }
      expect(result.stdout).toContain("/tmp: written to its own")
      for (const path of [`/etc/${name}`, `/usr/${name}`, `/${name}`, `/tmp/${name}`, join(tmpdir(), name), `/dev/${name}`, `/dev/shm/${name}`, join(directory, name)]) {
        expect(existsSync(path)).toBe(false)
      }
      expect(readFileSync(join(directory, "write.sh"), "utf8")).toBe(before)
      expect(readdirSync(directory)).toEqual(["write.sh"])
    }))

  it.scopedLive("a fork bomb meets the process limit, is stopped with everything it started, and the host is fine", () =>
    Effect.gen(function*() {
      // Without `&` every process waits on its pipeline, so the tree only grows until the limit refuses a fork.
      const { directory } = yield* packageOf({ "bomb.sh": "bomb() { bomb | bomb; }\nbomb" })
      const result = yield* run(directory, "bomb.sh", { processes: 16, timeoutMillis: 3000 })
      expect(result.stderr).toMatch(/fork/i)
      expect(groupAlive(result.pid)).toBe(false)
      expect(processesWith(result.token)).toEqual([])
      hostStillForks()
    }))

  it.scopedLive("a package that runs forever is killed at the timeout, its whole process group with it", () =>
    Effect.gen(function*() {
      const { directory } = yield* packageOf({ "forever.sh": "sleep 600 &\nwhile :; do :; done" })
      const result = yield* run(directory, "forever.sh", { timeoutMillis: 500 })
      expect(result).toMatchObject({ exit_code: null, timed_out: true, signal: "SIGKILL" })
      expect(groupAlive(result.pid)).toBe(false)
      expect(() => process.kill(result.pid, 0)).toThrow()
      expect(processesWith(result.token)).toEqual([])
    }))

  it.scopedLive("past its CPU seconds the command is ended by the kernel and reported with the signal", () =>
    Effect.gen(function*() {
      const { directory } = yield* packageOf({ "spin.sh": "while :; do :; done" })
      const result = yield* run(directory, "spin.sh", { cpuSeconds: 1, timeoutMillis: 30_000 })
      expect(result.timed_out).toBe(false)
      expect(["SIGXCPU", "SIGKILL"]).toContain(result.signal)
    }))

  it.scopedLive("output past the cap is read and dropped", () =>
    Effect.gen(function*() {
      const { directory } = yield* packageOf({ "chatty.sh": "yes | head -c 200000\nyes no | head -c 3000 >&2" })
      const result = yield* run(directory, "chatty.sh", { outputBytes: 1000 })
      expect(result).toMatchObject({ exit_code: 0, stdout_truncated: true, stderr_truncated: true })
      expect(result.stdout).toBe("y\n".repeat(500))
      expect(result.stderr.length).toBe(1000)
    }))
})
