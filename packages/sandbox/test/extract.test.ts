import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { gzipSync } from "node:zlib"
import { extractTarGz, extractToFreshDirectory, freshDirectory, type PackEntry, packTarGz, type UnsafeArchive } from "../src/index.ts"

const tarGz = (entries: ReadonlyArray<PackEntry>) => Effect.promise(() => packTarGz(entries))

/** The refusal of unpacking these entries (into a fresh directory inside a fresh parent, to see what leaks). */
const refusalOf = (entries: ReadonlyArray<PackEntry>, limits = {}) =>
  Effect.gen(function*() {
    const parent = yield* freshDirectory("extract-test-")
    const directory = join(parent, "package")
    const archive = yield* tarGz(entries)
    mkdirSync(directory)
    const error: UnsafeArchive = yield* Effect.flip(extractTarGz(archive, directory, limits))
    // Nothing lands beside the package's directory.
    expect(readdirSync(parent)).toEqual(["package"])
    return error
  }).pipe(Effect.scoped)

describe("extractTarGz", () => {
  it.scoped("unpacks files and directories with only the executable bit kept", () =>
    Effect.gen(function*() {
      const archive = yield* tarGz([
        { name: "./", type: "directory" },
        { name: "./app.json", content: "{\"command\":\"bin/tool\"}", mode: 0o666 },
        { name: "bin/", type: "directory", mode: 0o777 },
        { name: "bin/tool", content: "#!/bin/sh\necho hi\n", mode: 0o4777 },
        { name: "share/doc/deep/README", content: "read me" }
      ])
      const extracted = yield* extractToFreshDirectory(archive)
      expect(extracted.entries).toBe(5)
      expect(extracted.files).toEqual([
        { path: "app.json", size: 22, executable: false },
        { path: "bin/tool", size: 18, executable: true },
        { path: "share/doc/deep/README", size: 7, executable: false }
      ])
      expect(extracted.totalBytes).toBe(47)
      const at = (path: string) => join(extracted.directory, path)
      expect(readFileSync(at("bin/tool"), "utf8")).toBe("#!/bin/sh\necho hi\n")
      expect(statSync(at("bin/tool")).mode & 0o7777).toBe(0o755)
      expect(statSync(at("app.json")).mode & 0o7777).toBe(0o644)
      expect(statSync(at("bin")).mode & 0o7777).toBe(0o755)
      expect(statSync(extracted.directory).mode & 0o777).toBe(0o755)
    }))

  it.effect("the fresh directory is removed with its scope", () =>
    Effect.gen(function*() {
      const archive = yield* tarGz([{ name: "a.txt", content: "a" }])
      const extracted = yield* Effect.scoped(extractToFreshDirectory(archive))
      expect(existsSync(extracted.directory)).toBe(false)
    }))

  it.effect.each([
    { what: "a parent reference", entry: "../escaped.txt", reason: "parent_reference" },
    { what: "a parent reference deeper down", entry: "bin/../../escaped.txt", reason: "parent_reference" },
    { what: "an absolute path", entry: "/etc/escaped.txt", reason: "absolute_path" },
    { what: "a backslash", entry: "..\\escaped.txt", reason: "invalid_name" }
  ])("refuses $what, naming the entry", ({ entry, reason }) =>
    Effect.gen(function*() {
      const error = yield* refusalOf([{ name: "ok.txt", content: "fine" }, { name: entry, content: "out" }])
      expect(error).toMatchObject({ _tag: "UnsafeArchive", reason, entry })
      expect(error.message).toContain(JSON.stringify(entry))
    }))

  it.effect.each([
    { what: "a symbolic link", entry: { name: "etc", type: "symlink", linkname: "/etc" }, reason: "symlink" },
    { what: "a hard link", entry: { name: "passwd", type: "link", linkname: "/etc/passwd" }, reason: "hard_link" },
    { what: "a character device", entry: { name: "null", type: "character-device" }, reason: "device" },
    { what: "a block device", entry: { name: "disk", type: "block-device" }, reason: "device" },
    { what: "a FIFO", entry: { name: "pipe", type: "fifo" }, reason: "fifo" }
  ] as const)("refuses $what", ({ entry, reason }) =>
    Effect.gen(function*() {
      const error = yield* refusalOf([entry])
      expect(error).toMatchObject({ reason, entry: entry.name })
    }))

  it.effect("a symbolic link followed by a file written through it never writes outside", () =>
    Effect.gen(function*() {
      const error = yield* refusalOf([
        { name: "out", type: "symlink", linkname: ".." },
        { name: "out/escaped.txt", content: "out" }
      ])
      expect(error).toMatchObject({ reason: "symlink", entry: "out" })
    }))

  it.effect("caps the entry count, a file's size and the total", () =>
    Effect.gen(function*() {
      const many = Array.from({ length: 6 }, (_, index) => ({ name: `f${index}`, content: "x" }))
      expect(yield* refusalOf(many, { maxEntries: 5 })).toMatchObject({ reason: "too_many_entries", entry: "f5", limit: 5 })
      const big = [{ name: "big.bin", content: "x".repeat(2000) }]
      expect(yield* refusalOf(big, { maxFileBytes: 1000 })).toMatchObject({ reason: "file_too_large", entry: "big.bin", limit: 1000 })
      const two = [{ name: "a", content: "x".repeat(800) }, { name: "b", content: "x".repeat(800) }]
      expect(yield* refusalOf(two, { maxTotalBytes: 1500 })).toMatchObject({ reason: "total_too_large", entry: "b", limit: 1500 })
    }))

  it.scoped("a gzip bomb stops while inflating", () =>
    Effect.gen(function*() {
      const bomb = yield* tarGz([{ name: "zeros", content: new Uint8Array(4 * 1024 * 1024) }])
      expect(bomb.length).toBeLessThan(64 * 1024)
      const error = yield* Effect.flip(extractToFreshDirectory(bomb, { maxTotalBytes: 1024 * 1024 }))
      expect(error).toMatchObject({ reason: "total_too_large", entry: null })
    }))

  it.scoped("refuses what is not a gzip-compressed tar, and a path given twice", () =>
    Effect.gen(function*() {
      const notGzip = yield* Effect.flip(extractToFreshDirectory(Buffer.from("plain text")))
      expect(notGzip.reason).toBe("not_gzip_tar")
      const notTar = yield* Effect.flip(extractToFreshDirectory(gzipSync(Buffer.alloc(1024, 7))))
      expect(notTar.reason).toBe("not_gzip_tar")
      const twice = yield* refusalOf([{ name: "a", content: "1" }, { name: "./a", content: "2" }])
      expect(twice).toMatchObject({ reason: "duplicate_entry", entry: "./a" })
      const fileThenDirectory = yield* refusalOf([{ name: "a", content: "1" }, { name: "a/b", content: "2" }])
      expect(fileThenDirectory.reason).toBe("duplicate_entry")
    }))

  it.effect("what a refused archive wrote is removed with the fresh directory", () =>
    Effect.gen(function*() {
      const archive = yield* tarGz([{ name: "a.txt", content: "a" }, { name: "../b.txt", content: "b" }])
      let directory = ""
      const exit = yield* Effect.exit(Effect.scoped(
        Effect.flatMap(freshDirectory(), (fresh) => {
          directory = fresh
          return extractTarGz(archive, fresh)
        })
      ))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(existsSync(directory)).toBe(false)
      expect(existsSync(join(dirname(directory), "b.txt"))).toBe(false)
    }))
})
