import { FetchHttpClient } from "@effect/platform"
import { expect, it, layer } from "@effect/vitest"
import { freePort } from "@platform/testkit"
import { Effect, Layer, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import { AccountsDirectory, type CarbonIdentity, FakeAccounts, requireActive, type SiliconIdentity } from "../src/index.ts"

const ada: CarbonIdentity = {
  uuid: "A1",
  id: "c:ada",
  kind: "carbon",
  display_name: "Ada",
  status: "active",
  verified_emails: ["ada@example.com"],
  verified_phones: ["+14155550100"]
}
const robo: SiliconIdentity = { uuid: "S1", id: "si:robo", kind: "silicon", display_name: "Robo", status: "pending_custodian" }

layer(AccountsDirectory.fake([ada, robo]))("AccountsDirectory.fake", (it) => {
  it.effect("resolves as accounts does: verified email (any case), phone, ids by kind, uuid; typed refusals", () =>
    Effect.gen(function*() {
      const directory = yield* AccountsDirectory
      expect(yield* directory.carbonByEmail(" ADA@example.com")).toEqual(ada)
      expect(yield* directory.carbonByPhone("+14155550100")).toEqual(ada)
      expect(yield* directory.carbonById("C:ADA")).toEqual(ada)
      expect(yield* directory.siliconById("si:robo")).toEqual(robo)
      expect(yield* directory.byUuid("S1")).toEqual(robo)
      expect((yield* Effect.flip(directory.siliconById("si:ada")))._tag).toBe("AccountNotFound")
      expect((yield* Effect.flip(directory.carbonById("c:x")))._tag).toBe("InvalidId")
      expect((yield* Effect.flip(directory.carbonByPhone("4155550100")))._tag).toBe("AccountNotFound")
      expect(yield* Effect.flip(requireActive(robo))).toMatchObject({ code: "identity_not_active", details: { status: "pending_custodian" } })
    }))

  it.effect("creates Carbons with accounts' refusals, lists changes after a cursor, and goes down on demand", () =>
    Effect.gen(function*() {
      const directory = yield* AccountsDirectory
      const fake = yield* FakeAccounts
      const made = yield* directory.createCarbon({ phone: "+14155550199", display_name: "Grace" })
      expect(made).toMatchObject({ kind: "carbon", status: "active", verified_phones: ["+14155550199"] })
      expect(yield* directory.byUuid(made.uuid)).toEqual(made)
      expect((yield* Effect.flip(directory.createCarbon({ email: "ada@example.com", display_name: "A" })))._tag).toBe("EmailInUse")
      expect((yield* Effect.flip(directory.createCarbon({ email: "new@example.com", id: "c:ada", display_name: "A" })))._tag)
        .toBe("IdTaken")
      expect((yield* Effect.flip(directory.createCarbon({ display_name: "None" })))._tag).toBe("ValidationFailed")
      const robot = yield* directory.createSilicon({ id: "robot", display_name: "Robot", custodian_uuid: made.uuid })
      expect(robot).toMatchObject({ id: "si:robot", kind: "silicon", status: "active" })
      expect(yield* directory.siliconById("si:robot")).toEqual(robot)
      expect((yield* Effect.flip(directory.createSilicon({ id: "robot", display_name: "R", custodian_uuid: made.uuid })))._tag)
        .toBe("IdTaken")
      expect((yield* Effect.flip(directory.createSilicon({ id: "other", display_name: "R", custodian_uuid: "S1" })))._tag)
        .toBe("AccountNotFound")

      const start = (yield* directory.changes()).cursor
      yield* fake.put({ ...ada, status: "deleted", id: null })
      yield* fake.put({ ...robo, display_name: "Robo" })
      const changes = yield* directory.changes({ after: start })
      expect(changes).toEqual({
        items: [{ cursor: changes.cursor, uuid: "A1", kind: "carbon", id: null, display_name: "Ada", status: "deleted" }],
        cursor: changes.cursor,
        more: false
      })
      expect(yield* directory.carbonByEmail("ada@example.com")).toMatchObject({ status: "deleted" })

      yield* fake.setUnavailable(true)
      expect(yield* Effect.flip(directory.byUuid("A1"))).toMatchObject({ _tag: "AccountsUnavailable", status: 503 })
      yield* fake.setUnavailable(false)
      expect((yield* directory.byUuid("A1")).uuid).toBe("A1")
    }))
})

/** A server that accepts connections and never answers. */
const silentServer = Effect.acquireRelease(
  Effect.promise(async () => {
    const port = await freePort()
    const server: Server = createServer(() => {})
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
    return { server, url: `http://127.0.0.1:${port}` }
  }),
  ({ server }) =>
    Effect.promise(() =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
    )
)

const directoryAt = (baseUrl: string, timeout?: number) =>
  AccountsDirectory.layer({ baseUrl, token: Redacted.make("token"), timeout }).pipe(Layer.provide(FetchHttpClient.layer))

// On the real clock: the client's timeout is what is under test.
it.live("AccountsDirectory.layer: no server, or one that never answers in time, is AccountsUnavailable", () =>
  Effect.scoped(Effect.gen(function*() {
    const nobody = `http://127.0.0.1:${yield* Effect.promise(freePort)}`
    const down = yield* Effect.flip(Effect.flatMap(AccountsDirectory, (directory) => directory.carbonById("c:ada"))).pipe(
      Effect.provide(directoryAt(nobody))
    )
    expect(down).toMatchObject({ _tag: "AccountsUnavailable", code: "accounts_unavailable" })

    const { url } = yield* silentServer
    const late = yield* Effect.flip(Effect.flatMap(AccountsDirectory, (directory) => directory.changes())).pipe(
      Effect.provide(directoryAt(url, 200))
    )
    expect(late._tag).toBe("AccountsUnavailable")
  })))
