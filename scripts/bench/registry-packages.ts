/**
 * `npm run bench:registry-packages`: the wall time of validating one package as an upload does, beside
 * the same three commands run directly (the floor):
 * - sandbox, with unpacking: the .tar.gz unpacked safely into a fresh directory, then `--help`,
 *   `accounts --json` and `login status --json` each in bubblewrap under the registry's limits;
 * - sandbox, commands only: the three sandboxed commands over an unpacked package;
 * - direct: the three commands as plain child processes of this one (no sandbox, no limits).
 * The package is a shell-script app like the tests'. BENCH_RUNS runs of each (default 50) after 3 warm-up
 * runs. `packageValidationSection()` gives the Markdown section for a larger registry benchmark; run as a
 * script it writes the section to apps/registry/docs/benchmarks.md.
 */
import { extractToFreshDirectory, packTarGz, runSandboxed, type SandboxCommand, type SandboxResult } from "@platform/sandbox"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { validatePackage } from "../../apps/registry/src/packages/Validation.ts"
import { machine, writeSection } from "./report.ts"

const root = join(import.meta.dirname, "..", "..")
const runs = Number(process.env["BENCH_RUNS"] ?? 50)
const warmUps = 3

const script = `#!/bin/sh
case "$*" in
  "--help") echo 'usage: tool [accounts | login status] [--json]' ;;
  "accounts --json") echo '[{"id": "c:ada"}]' ;;
  "login status --json") echo '{"signed_in": true}' ;;
  *) exit 2 ;;
esac
`

/** The command run straight from the unpacked directory, its output read the same way. */
const direct = ({ args, command, directory }: SandboxCommand): Effect.Effect<SandboxResult> =>
  Effect.async((resume) => {
    const child = spawn(join(directory, command.replace(/^\/app\//, "")), [...(args ?? [])], { cwd: directory, env: {} })
    let stdout = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.resume()
    child.on("close", (code) =>
      resume(Effect.succeed({
        exit_code: code,
        stdout,
        stderr: "",
        timed_out: false,
        signal: null,
        stdout_truncated: false,
        stderr_truncated: false,
        pid: child.pid ?? -1,
        uid: process.getuid?.() ?? -1
      })))
  })

const timed = <E>(label: string, once: Effect.Effect<boolean, E>) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    for (let index = 0; index < warmUps + runs; index++) {
      const started = performance.now()
      const passed = yield* once
      const elapsed = performance.now() - started
      if (!passed) return yield* Effect.dieMessage(`${label}: the package did not pass validation`)
      if (index >= warmUps) times.push(elapsed)
    }
    times.sort((a, b) => a - b)
    const at = (fraction: number) => times[Math.min(times.length - 1, Math.floor(fraction * times.length))]!
    return { label, mean: times.reduce((sum, time) => sum + time, 0) / times.length, p50: at(0.5), p95: at(0.95) }
  })

const allPassed = (results: ReadonlyArray<{ readonly passed: boolean }>) => results.every((result) => result.passed)

/** The three rows, measured now. */
export const measurePackageValidation = Effect.gen(function*() {
  const archive = yield* Effect.promise(() =>
    packTarGz([
      { name: "app.json", content: JSON.stringify({ command: "bin/tool" }) },
      { name: "bin/tool", content: script, mode: 0o755 }
    ])
  )
  const unpacked = yield* extractToFreshDirectory(archive)
  const withUnpacking = yield* timed(
    "sandbox, with unpacking",
    Effect.scoped(Effect.flatMap(extractToFreshDirectory(archive), (extracted) =>
      Effect.map(validatePackage(runSandboxed, extracted.directory, "bin/tool"), allPassed)))
  )
  const sandboxed = yield* timed(
    "sandbox, commands only",
    Effect.map(validatePackage(runSandboxed, unpacked.directory, "bin/tool"), allPassed)
  )
  const bare = yield* timed("direct (no sandbox)", Effect.map(validatePackage(direct, unpacked.directory, "bin/tool"), allPassed))
  return { rows: [withUnpacking, sandboxed, bare], archiveBytes: archive.length }
}).pipe(Effect.scoped)

const ms = (value: number) => value.toFixed(1)

/** The benchmark's Markdown section, measured now. */
export const packageValidationSection = () =>
  Effect.runPromise(Effect.map(measurePackageValidation, ({ archiveBytes, rows }) => {
    const floor = rows[rows.length - 1]!
    return `## Package validation in the sandbox (\`npm run bench:registry-packages\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} (load average before the run: ${
      loadavg().map((l) => l.toFixed(1)).join(", ")
    }); bubblewrap ${process.getuid?.() === 0 ? "started as a uid of its own per run (we are root)" : "started as this user"}. One package (a ${archiveBytes}-byte .tar.gz: app.json and a shell-script command) validated ${runs} times after ${warmUps} warm-up runs, one at a time: the three commands \`--help\`, \`accounts --json\`, \`login status --json\` one after the other, as an upload runs them. Sandbox: each command in its own bubblewrap (every namespace unshared, read-only binds, private /tmp and /dev/shm, prlimit's limits). Direct: the same commands as plain child processes.

| validation of one package | mean ms | p50 ms | p95 ms | × direct (mean) |
| --- | --- | --- | --- | --- |
${rows.map((row) => `| ${row.label} | ${ms(row.mean)} | ${ms(row.p50)} | ${ms(row.p95)} | ${(row.mean / floor.mean).toFixed(1)} |`).join("\n")}`
  }))

if (import.meta.url === `file://${process.argv[1]}`) {
  const section = await packageValidationSection()
  mkdirSync(join(root, "apps/registry/docs"), { recursive: true })
  writeSection(join(root, "apps/registry/docs/benchmarks.md"), "registry-packages", section)
  console.log(section)
}
