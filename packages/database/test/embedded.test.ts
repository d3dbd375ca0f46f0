import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { execFile, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { Database } from "../src/index.ts"
import { temporaryDirectory } from "./fixtures/temporary-directory.ts"
import { addWidget, widgetMigrations, widgetNames } from "./fixtures/widgets.ts"

const embedded = (dataDir: string) => Database.layer({ url: Option.none(), dataDir, migrations: widgetMigrations })

const runInAnotherProcess = (dataDir: string, widget: string) =>
  Effect.promise(() =>
    promisify(execFile)(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("fixtures/embedded-client.ts", import.meta.url)), dataDir, widget],
      { timeout: 30_000 }
    )
  ).pipe(Effect.map(({ stdout }) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "null") as unknown))

/** The permission bits of every entry under a directory (itself included), by kind, except sockets. */
const modesUnder = (root: string): { readonly directories: Set<string>; readonly files: Set<string> } => {
  const directories = new Set<string>()
  const files = new Set<string>()
  const visit = (entry: string): void => {
    const stat = fs.lstatSync(entry)
    const mode = (stat.mode & 0o777).toString(8)
    if (stat.isDirectory()) {
      directories.add(mode)
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name))
    } else if (stat.isFile()) files.add(mode)
  }
  visit(root)
  return { directories, files }
}

const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", ""])
  return child.pid
}

describe("embedded database", () => {
  it.scopedLive("keeps its data across a close and a reopen, and leaves no lock or socket behind", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* temporaryDirectory, "service")
      yield* Effect.provide(addWidget("kept"), embedded(dataDir))
      assert.deepStrictEqual(fs.readdirSync(dataDir).sort(), ["postgres"])
      assert.deepStrictEqual(yield* Effect.provide(widgetNames, embedded(dataDir)), ["kept"])
    }))

  it.scopedLive("a second opener on the same directory connects through the host's socket", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* temporaryDirectory, "service")
      const host = yield* Layer.build(embedded(dataDir))
      assert.strictEqual(fs.readFileSync(path.join(dataDir, "embedded.lock"), "utf8").trim(), String(process.pid))
      yield* Effect.provide(addWidget("from the host"), host)
      // In this process...
      const client = yield* Layer.build(embedded(dataDir))
      assert.deepStrictEqual(yield* Effect.provide(widgetNames, client), ["from the host"])
      yield* Effect.provide(addWidget("from a client"), client)
      // ...and in another one, like an operator command run while the server runs.
      assert.deepStrictEqual(
        yield* runInAnotherProcess(dataDir, "from another process"),
        ["from the host", "from a client", "from another process"]
      )
      assert.deepStrictEqual(
        yield* Effect.provide(widgetNames, host),
        ["from the host", "from a client", "from another process"]
      )
    }))

  it.scopedLive("takes over a lock left by a process that died, and the socket it left", () =>
    Effect.gen(function*() {
      const dataDir = yield* temporaryDirectory
      fs.writeFileSync(path.join(dataDir, "embedded.lock"), `${deadPid()}\n`)
      fs.writeFileSync(path.join(dataDir, ".s.PGSQL.5432"), "")
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(embedded(dataDir))
        assert.strictEqual(fs.readFileSync(path.join(dataDir, "embedded.lock"), "utf8").trim(), String(process.pid))
        yield* Effect.provide(addWidget("after a crash"), context)
      }))
      // A lock bearing our own pid, left by an earlier process that had it (pids repeat in containers).
      fs.writeFileSync(path.join(dataDir, "embedded.lock"), `${process.pid}\n`)
      assert.deepStrictEqual(yield* Effect.provide(widgetNames, embedded(dataDir)), ["after a crash"])
    }))

  it.scopedLive("refuses a data directory too long for a Unix socket", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* temporaryDirectory, "d".repeat(120))
      const error = yield* Effect.flip(Effect.provide(Effect.void, embedded(dataDir)))
      assert.strictEqual(error._tag, "DatabaseError")
      assert.include(error.message, "too long")
    }))

  it.scopedLive("keeps its files private to the service's user, whatever the umask and the directory's old mode", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* temporaryDirectory, "service")
      fs.mkdirSync(dataDir)
      fs.chmodSync(dataDir, 0o777)
      const umask = process.umask(0)
      yield* Effect.addFinalizer(() => Effect.sync(() => process.umask(umask)))
      yield* Effect.scoped(Effect.gen(function*() {
        const host = yield* Layer.build(embedded(dataDir))
        yield* Effect.provide(addWidget("private"), host)
        assert.deepStrictEqual(modesUnder(dataDir), { directories: new Set(["700"]), files: new Set(["600"]) })
      }))
      assert.deepStrictEqual(modesUnder(dataDir), { directories: new Set(["700"]), files: new Set(["600"]) })
    }))
})
