import { runToExit } from "@platform/testkit"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..", "..")

describe("npm run registry -- keys …, on the embedded database", () => {
  let dataDir = ""
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "registry-cli-"))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const registry = (...args: Array<string>) => runToExit({ entry: "apps/registry/src/cli.ts", cwd: root, env: { REGISTRY_DATA_DIR: dataDir }, args })

  it("rotates in a key with a name, then revokes it with a reason (a new key is made when none is left)", async () => {
    const rotated = await registry("keys", "rotate", "--name", "operator key")
    expect({ code: rotated.code, stderr: rotated.stderr }).toEqual({ code: 0, stderr: "" })
    const key = JSON.parse(rotated.stdout)
    expect(key).toMatchObject({ name: "operator key", algorithm: "ed25519", status: "active" })

    const revoked = await registry("keys", "revoke", "--reason", "Compromised.", key.key_id)
    expect({ code: revoked.code, stderr: revoked.stderr }).toEqual({ code: 0, stderr: "" })
    const answer = JSON.parse(revoked.stdout)
    expect(answer.revoked).toMatchObject({ key_id: key.key_id, status: "revoked", revoked_reason: "Compromised." })
    expect(answer.created).toMatchObject({ status: "active", algorithm: "ed25519" })

    const refused = await registry("keys", "revoke", "--reason", "Again.", key.key_id)
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe("")
    expect(refused.stderr.trim()).toBe(`registry: No active release-signing key has the id ${key.key_id}.`)
  }, 120_000)
})
