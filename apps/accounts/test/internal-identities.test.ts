import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { AccountsDirectory, type IdentityChange } from "@platform/accounts-identity-api"
import { randomHex } from "@platform/crypto"
import { Effect, Layer, Option, Redacted } from "effect"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { AccountsTest, AccountsUnderTest, accountsClient } from "./support/AccountsUnderTest.ts"
import { signedInCarbon } from "./support/contacts.ts"
import { postCsv } from "./support/csvUpload.ts"
import { makeFlowAppWithSecret, run } from "./support/flows.ts"
import { fetchAnswer } from "./support/http.ts"
import { createSilicon } from "./support/silicons.ts"

const INTERNAL_TOKEN = "internal-token-for-identities"
const internal = { authorization: `Bearer ${INTERNAL_TOKEN}` }

const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))

/** The internal identity routes as a typed client, with the internal token. */
const identities = Effect.map(accountsClient(internal), (client) => client.internalIdentities)

const digits = (count: number) => Array.from({ length: count }, () => Math.floor(Math.random() * 10)).join("")
const freshPhone = () => `+1415${digits(7)}`
const freshHandle = (stem: string) => `${stem}${randomHex(6)}`

/** A new active Carbon with a verified email and phone, straight through the repository. */
const carbonWithEmailAndPhone = Effect.gen(function*() {
  const accounts = yield* AccountsRepo
  const handle = freshHandle("ada")
  const email = `${handle}@example.com`
  const phone = freshPhone()
  const carbon = yield* Effect.orDie(accounts.createCarbon({ id: `c:${handle}`, displayName: "Ada", email, phone }))
  return { carbon, handle, email, phone }
}).pipe(Effect.provide(AccountsRepo.Default))

/** The changes after `cursor`, every page, until `uuid` has changes that `ready` accepts (a change is listed once it settles). */
const changesOf = (cursor: string, uuid: string, ready: (changes: ReadonlyArray<IdentityChange>) => boolean) =>
  Effect.gen(function*() {
    const api = yield* identities
    for (let attempt = 0; attempt < 400; attempt++) {
      const seen: Array<IdentityChange> = []
      let after = cursor
      for (;;) {
        const page = yield* api.changes({ urlParams: { after, limit: 200 } })
        seen.push(...page.items)
        after = page.cursor
        if (!page.more) break
      }
      const mine = seen.filter((change) => change.uuid === uuid)
      if (ready(mine)) return mine
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.dieMessage(`the changes of ${uuid} never showed as expected`)
  })

/** Where the feed ends now. */
const endOfFeed = Effect.gen(function*() {
  const api = yield* identities
  let page = yield* api.changes({ urlParams: { limit: 200 } })
  while (page.more) page = yield* api.changes({ urlParams: { after: page.cursor, limit: 200 } })
  return page.cursor
})

/** AccountsDirectory (the package's client) on the server under test. */
const DirectoryOnServer = Layer.unwrapEffect(
  Effect.map(AccountsUnderTest, ({ url }) => AccountsDirectory.layer({ baseUrl: url, token: Redacted.make(INTERNAL_TOKEN) }))
).pipe(Layer.provide(FetchHttpClient.layer))

const Server = DirectoryOnServer.pipe(
  Layer.provideMerge(AccountsTest({ internalToken: Option.some(Redacted.make(INTERNAL_TOKEN)) }))
)

layer(Server, { excludeTestServices: true })("internal identity routes", (it) => {
  it.effect("need the internal token: none is 401 internal_token_required, another 401 invalid_internal_token", () =>
    Effect.gen(function*() {
      const { carbon } = yield* carbonWithEmailAndPhone
      const missing = yield* call(`/v1/internal/identities/${carbon.uuid}`)
      expect(missing.status).toBe(401)
      expect(missing.body.error.code).toBe("internal_token_required")
      const wrong = yield* call(`/v1/internal/identities/${carbon.uuid}`, { headers: { authorization: "Bearer not-it" } })
      expect(wrong.status).toBe(401)
      expect(wrong.body.error.code).toBe("invalid_internal_token")
      const created = yield* call("/v1/internal/identities/carbons", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "x@example.com", display_name: "X" })
      })
      expect(created.status).toBe(401)
      expect((yield* call(`/v1/internal/identities/${carbon.uuid}`, { headers: internal })).status).toBe(200)
    }))

  it.effect("a Carbon by verified email (any case, percent-encoded or not), by phone and by c: id, with both verified channels", () =>
    Effect.gen(function*() {
      const api = yield* identities
      const { carbon, email, handle, phone } = yield* carbonWithEmailAndPhone
      const expected = {
        uuid: carbon.uuid,
        id: `c:${handle}`,
        kind: "carbon",
        display_name: "Ada",
        status: "active",
        verified_emails: [email],
        verified_phones: [phone]
      }
      expect(yield* api.carbonByEmail({ path: { email: email.toUpperCase() } })).toEqual(expected)
      expect(yield* api.carbonByPhone({ path: { phone } })).toEqual(expected)
      expect(yield* api.carbonById({ path: { id: `C:${handle.toUpperCase()}` } })).toEqual(expected)
      // On the wire: `@` and `+` bare or percent-encoded name the same address.
      expect((yield* call(`/v1/internal/identities/carbons/by-email/${email}`, { headers: internal })).body).toEqual(expected)
      expect((yield* call(`/v1/internal/identities/carbons/by-phone/${phone}`, { headers: internal })).body).toEqual(expected)

      // A pending address resolves nobody and is not listed.
      const pending = `${freshHandle("pending")}@example.com`
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`
          INSERT INTO account_emails (account_uuid, address, verified_at, is_primary, created_at)
          VALUES (${carbon.uuid}, ${pending}, NULL, false, now())
        `).pipe(Effect.orDie)
      const unverified = yield* call(`/v1/internal/identities/carbons/by-email/${encodeURIComponent(pending)}`, { headers: internal })
      expect(unverified.status).toBe(404)
      expect(unverified.body.error.code).toBe("account_not_found")
      expect((yield* api.carbonByEmail({ path: { email } })).verified_emails).toEqual([email])

      const malformed = yield* call("/v1/internal/identities/carbons/by-phone/4155550100", { headers: internal })
      expect(malformed.status).toBe(404)
      expect(malformed.body.error.code).toBe("account_not_found")
      const badId = yield* call("/v1/internal/identities/carbons/by-id/c:x", { headers: internal })
      expect(badId.status).toBe(422)
      expect(badId.body.error.code).toBe("invalid_id")
      expect((yield* call(`/v1/internal/identities/carbons/by-id/c:${freshHandle("nobody")}`, { headers: internal })).body.error.code)
        .toBe("account_not_found")
    }))

  it.effect("a Silicon by si: id, any account by uuid; each kind only on its own route; a Silicon waiting for its custodian says so", () =>
    Effect.gen(function*() {
      const api = yield* identities
      const { custodian, id, silicon } = yield* createSilicon({ displayName: "Robo" })
      const expected = { uuid: silicon.uuid, id, kind: "silicon", display_name: "Robo", status: "active" }
      expect(yield* api.siliconById({ path: { id: id.toUpperCase() } })).toEqual(expected)
      expect(yield* api.byUuid({ path: { uuid: silicon.uuid } })).toEqual(expected)
      expect(yield* api.byUuid({ path: { uuid: custodian.uuid } })).toMatchObject({ kind: "carbon", id: `c:${custodian.handle}` })

      const carbonRoute = yield* call(`/v1/internal/identities/carbons/by-id/${id.replace("si:", "c:")}`, { headers: internal })
      expect(carbonRoute.body.error.code).toBe("account_not_found")
      const siliconRoute = yield* call(`/v1/internal/identities/silicons/by-id/si:${custodian.handle}`, { headers: internal })
      expect(siliconRoute.status).toBe(404)
      expect(siliconRoute.body.error.code).toBe("account_not_found")
      const unknown = yield* call("/v1/internal/identities/zzzzzzzz", { headers: internal })
      expect(unknown.status).toBe(404)
      expect(unknown.body.error.code).toBe("account_not_found")

      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`UPDATE accounts SET status = 'pending_custodian' WHERE uuid = ${silicon.uuid}`).pipe(Effect.orDie)
      expect(yield* api.siliconById({ path: { id } })).toEqual({ ...expected, status: "pending_custodian" })
    }))

  it.effect("creates a Carbon for a verified email or phone: 201, the address verified; an Idempotency-Key retry answers the same", () =>
    Effect.gen(function*() {
      const api = yield* identities
      const email = `${freshHandle("new")}@Example.com`
      const handle = freshHandle("grace")
      const created = yield* call("/v1/internal/identities/carbons", {
        method: "POST",
        headers: { ...internal, "content-type": "application/json", "idempotency-key": `signup-${handle}` },
        body: JSON.stringify({ email, id: `C:${handle}`, display_name: " Grace ", timezone: "Europe/Paris" })
      })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({
        uuid: expect.any(String),
        id: `c:${handle}`,
        kind: "carbon",
        display_name: "Grace",
        status: "active",
        verified_emails: [email.toLowerCase()],
        verified_phones: []
      })
      const retried = yield* call("/v1/internal/identities/carbons", {
        method: "POST",
        headers: { ...internal, "content-type": "application/json", "idempotency-key": `signup-${handle}` },
        body: JSON.stringify({ email, id: `C:${handle}`, display_name: " Grace ", timezone: "Europe/Paris" })
      })
      expect(retried.status).toBe(201)
      expect(retried.body.uuid).toBe(created.body.uuid)
      expect(yield* api.carbonByEmail({ path: { email } })).toEqual(created.body)
      const me = yield* Effect.flatMap(AccountsRepo, (accounts) => accounts.findByUuid(created.body.uuid)).pipe(
        Effect.provide(AccountsRepo.Default)
      )
      expect(Option.getOrThrow(me).timezone).toBe("Europe/Paris")

      // A phone sign-up with no id chosen: one is made from the display name.
      const phone = freshPhone()
      const byPhone = yield* api.createCarbon({ payload: { phone, display_name: "Linus T" }, headers: {} })
      expect(byPhone).toMatchObject({ kind: "carbon", status: "active", verified_emails: [], verified_phones: [phone] })
      expect(byPhone.id).toMatch(/^c:linust[0-9]{4}$/)
      expect((yield* api.carbonByPhone({ path: { phone } })).uuid).toBe(byPhone.uuid)
    }))

  it.effect("refuses a taken id (with suggestions), a reserved word, an address verified elsewhere, and not exactly one address", () =>
    Effect.gen(function*() {
      const { email, handle, phone } = yield* carbonWithEmailAndPhone
      const create = (body: Record<string, unknown>) =>
        call("/v1/internal/identities/carbons", {
          method: "POST",
          headers: { ...internal, "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      const fresh = () => `${freshHandle("x")}@example.com`

      const taken = yield* create({ email: fresh(), id: `c:${handle}`, display_name: "Another Ada" })
      expect(taken.status).toBe(409)
      expect(taken.body.error.code).toBe("id_taken")
      expect(taken.body.error.details.suggestions.length).toBeGreaterThan(0)
      const reserved = yield* create({ email: fresh(), id: "c:admin", display_name: "Admin" })
      expect(reserved.status).toBe(422)
      expect(reserved.body.error).toMatchObject({ code: "invalid_id", details: { reason: "reserved_word" } })
      const siliconId = yield* create({ email: fresh(), id: `si:${freshHandle("s")}`, display_name: "S" })
      expect(siliconId.body.error.code).toBe("invalid_id")

      const emailInUse = yield* create({ email: email.toUpperCase(), display_name: "Copy" })
      expect(emailInUse.status).toBe(409)
      expect(emailInUse.body.error.code).toBe("email_in_use")
      const phoneInUse = yield* create({ phone, display_name: "Copy" })
      expect(phoneInUse.status).toBe(409)
      expect(phoneInUse.body.error.code).toBe("phone_in_use")

      const both = yield* create({ email: fresh(), phone: freshPhone(), display_name: "Both" })
      expect(both.status).toBe(422)
      expect(both.body.error).toMatchObject({ code: "validation_failed", details: { fields: { email: "or phone: send exactly one" } } })
      const neither = yield* create({ display_name: "Neither" })
      expect(neither.status).toBe(422)
      const badName = yield* create({ email: fresh(), display_name: "  " })
      expect(badName.body.error).toMatchObject({ code: "validation_failed", details: { fields: { display_name: expect.any(String) } } })
      const unknownField = yield* create({ email: fresh(), display_name: "U", dob: "1990-01-01" })
      expect(unknownField.status).toBe(422)
    }))

  it.effect("creates a Silicon in a Carbon's custody: 201 active, findable by its si: id; an Idempotency-Key retry answers the same", () =>
    Effect.gen(function*() {
      const api = yield* identities
      const { carbon } = yield* carbonWithEmailAndPhone
      const handle = freshHandle("robo")
      const create = (body: Record<string, unknown>, key?: string) =>
        call("/v1/internal/identities/silicons", {
          method: "POST",
          headers: { ...internal, "content-type": "application/json", ...(key === undefined ? {} : { "idempotency-key": key }) },
          body: JSON.stringify(body)
        })
      const created = yield* create({ id: handle, display_name: " Robo ", custodian_uuid: carbon.uuid }, `silicon-${handle}`)
      expect(created.status).toBe(201)
      expect(created.body).toEqual({ uuid: expect.any(String), id: `si:${handle}`, kind: "silicon", display_name: "Robo", status: "active" })
      const retried = yield* create({ id: handle, display_name: " Robo ", custodian_uuid: carbon.uuid }, `silicon-${handle}`)
      expect(retried.body.uuid).toBe(created.body.uuid)
      expect(yield* api.siliconById({ path: { id: `si:${handle}` } })).toEqual(created.body)
      const custody = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ readonly custodian_uuid: string }>`SELECT custodian_uuid FROM silicons WHERE account_uuid = ${created.body.uuid}`)
      expect(custody).toEqual([{ custodian_uuid: carbon.uuid }])

      const taken = yield* create({ id: handle, display_name: "Again", custodian_uuid: carbon.uuid })
      expect([taken.status, taken.body.error.code]).toEqual([409, "id_taken"])
      const carbonId = yield* create({ id: `c:${freshHandle("c")}`, display_name: "C", custodian_uuid: carbon.uuid })
      expect([carbonId.status, carbonId.body.error.code]).toEqual([422, "invalid_id"])
      const badName = yield* create({ id: freshHandle("r"), display_name: " ", custodian_uuid: carbon.uuid })
      expect(badName.body.error).toMatchObject({ code: "validation_failed", details: { fields: { display_name: expect.any(String) } } })
      const noCustodian = yield* create({ id: freshHandle("r"), display_name: "R", custodian_uuid: "zzzzzzzz" })
      expect([noCustodian.status, noCustodian.body.error.code]).toEqual([404, "account_not_found"])
      const siliconCustodian = yield* create({ id: freshHandle("r"), display_name: "R", custodian_uuid: created.body.uuid })
      expect(siliconCustodian.body.error.code).toBe("account_not_found")
    }))

  it.effect("an address an app imported and nobody claimed: creating the Carbon finishes that import (same uuid)", () =>
    Effect.gen(function*() {
      const api = yield* identities
      const { url } = yield* AccountsUnderTest
      const { appId, secret } = yield* makeFlowAppWithSecret()
      const email = `${freshHandle("imported")}@example.com`
      const uploaded = yield* run(() =>
        postCsv(`${url}/v1/apps/${appId}/imports`, `external_id,email,display_name\nimp-1,${email},Imported\n`, {
          authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
        })
      )
      expect(uploaded.status).toBe(201)
      const [imported] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ account_uuid: string }>`SELECT account_uuid FROM imported_accounts WHERE app_id = ${appId}`).pipe(Effect.orDie)
      const handle = freshHandle("claim")
      const created = yield* api.createCarbon({ payload: { email, id: `c:${handle}`, display_name: "Claimed" }, headers: {} })
      expect(created).toMatchObject({ uuid: imported!.account_uuid, id: `c:${handle}`, display_name: "Claimed", verified_emails: [email] })
    }))

  it.effect("the changes feed lists an id change, a display name change and a deletion, each as the account is now; not a timezone change", () =>
    Effect.gen(function*() {
      const api = yield* identities
      const cursor = yield* endOfFeed
      const { accessToken, carbon } = yield* signedInCarbon()
      const me = yield* accountsClient({ authorization: `Bearer ${accessToken}` })

      const newId = `c:${freshHandle("renamed")}`
      yield* me.me.changeId({ payload: { id: newId } })
      const afterIdChange = yield* changesOf(cursor, carbon.uuid, (changes) => changes.length === 1)
      expect(afterIdChange).toEqual([
        { cursor: expect.any(String), uuid: carbon.uuid, kind: "carbon", id: newId, display_name: "Test Carbon", status: "active" }
      ])

      yield* me.me.update({ payload: { timezone: "Asia/Tokyo" } })
      yield* me.me.update({ payload: { display_name: "Renamed Carbon" } })
      const afterRename = yield* changesOf(afterIdChange[0]!.cursor, carbon.uuid, (changes) => changes.length > 0)
      expect(afterRename).toEqual([expect.objectContaining({ display_name: "Renamed Carbon", id: newId, status: "active" })])

      yield* me.me.delete({ payload: { confirm_id: newId } })
      const afterDeletion = yield* changesOf(afterRename[0]!.cursor, carbon.uuid, (changes) => changes.length > 0)
      expect(afterDeletion).toEqual([expect.objectContaining({ uuid: carbon.uuid, id: null, status: "deleted" })])
      expect(yield* api.byUuid({ path: { uuid: carbon.uuid } })).toEqual({
        uuid: carbon.uuid,
        id: null,
        kind: "carbon",
        display_name: "Renamed Carbon",
        status: "deleted",
        verified_emails: [],
        verified_phones: []
      })

      // Pages: a limit of one says more follows; the cursor moves only forward.
      const first = yield* api.changes({ urlParams: { after: cursor, limit: 1 } })
      expect(first.items).toHaveLength(1)
      expect(first.more).toBe(true)
      expect(first.cursor).toBe(first.items[0]!.cursor)
      const second = yield* api.changes({ urlParams: { after: first.cursor, limit: 1 } })
      expect(second.items[0]!.cursor).not.toBe(first.cursor)

      const end = yield* endOfFeed
      expect(yield* api.changes({ urlParams: { after: end } })).toEqual({ items: [], cursor: end, more: false })
      const invalid = yield* call("/v1/internal/identities/changes?after=not-a-cursor", { headers: internal })
      expect(invalid.status).toBe(400)
      expect(invalid.body.error.code).toBe("invalid_cursor")
    }))

  it.effect("AccountsDirectory.layer: every method against the server, typed refusals, AccountsUnavailable for a refused token or no server", () =>
    Effect.gen(function*() {
      const directory = yield* AccountsDirectory
      const { carbon, email, handle, phone } = yield* carbonWithEmailAndPhone
      const { id: siliconId, silicon } = yield* createSilicon()
      expect((yield* directory.carbonByEmail(email)).uuid).toBe(carbon.uuid)
      expect((yield* directory.carbonByPhone(phone)).verified_emails).toEqual([email])
      expect((yield* directory.carbonById(`c:${handle}`)).uuid).toBe(carbon.uuid)
      expect((yield* directory.siliconById(siliconId)).uuid).toBe(silicon.uuid)
      expect((yield* directory.byUuid(silicon.uuid)).kind).toBe("silicon")
      expect((yield* Effect.flip(directory.byUuid("zzzzzzzz")))._tag).toBe("AccountNotFound")
      expect((yield* Effect.flip(directory.carbonById("c:x")))._tag).toBe("InvalidId")
      expect((yield* Effect.flip(directory.carbonByEmail("not-an-email")))._tag).toBe("AccountNotFound")

      const newEmail = `${freshHandle("dir")}@example.com`
      const made = yield* directory.createCarbon({ email: newEmail, display_name: "Directory" }, { idempotencyKey: `dir-${newEmail}` })
      expect(made).toMatchObject({ kind: "carbon", verified_emails: [newEmail] })
      expect((yield* directory.createCarbon({ email: newEmail, display_name: "Directory" }, { idempotencyKey: `dir-${newEmail}` })).uuid)
        .toBe(made.uuid)
      const taken = yield* Effect.flip(directory.createCarbon({ email: `${freshHandle("t")}@example.com`, id: `c:${handle}`, display_name: "T" }))
      expect(taken._tag).toBe("IdTaken")
      expect(taken._tag === "IdTaken" && taken.details?.suggestions.length).toBeGreaterThan(0)
      expect((yield* Effect.flip(directory.createCarbon({ email, display_name: "Copy" })))._tag).toBe("EmailInUse")
      const robot = yield* directory.createSilicon({ id: freshHandle("dir"), display_name: "Directory", custodian_uuid: carbon.uuid })
      expect(robot).toMatchObject({ kind: "silicon", status: "active" })
      const orphan = yield* Effect.flip(directory.createSilicon({ id: freshHandle("dir"), display_name: "D", custodian_uuid: silicon.uuid }))
      expect(orphan._tag).toBe("AccountNotFound")
      const feed = yield* directory.changes({ limit: 1 })
      expect(feed.cursor).toEqual(expect.any(String))
      expect((yield* Effect.flip(directory.changes({ after: "nope" })))._tag).toBe("InvalidCursor")

      const { url } = yield* AccountsUnderTest
      const elsewhere = (baseUrl: string, token: string) =>
        Effect.flatMap(AccountsDirectory, (other) => Effect.flip(other.byUuid(carbon.uuid))).pipe(
          Effect.provide(AccountsDirectory.layer({ baseUrl, token: Redacted.make(token) })),
          Effect.provide(FetchHttpClient.layer)
        )
      const refused = yield* elsewhere(url, "wrong-token")
      expect(refused).toMatchObject({ _tag: "AccountsUnavailable", code: "accounts_unavailable", status: 503 })
      // Port 9 (discard) on loopback: nothing listens there.
      expect((yield* elsewhere("http://127.0.0.1:9", INTERNAL_TOKEN))._tag).toBe("AccountsUnavailable")
    }))
})

layer(AccountsTest(), { excludeTestServices: true })("internal identity routes without a configured token", (it) => {
  it.effect("answer 403 internal_api_disabled", () =>
    Effect.gen(function*() {
      const answer = yield* call("/v1/internal/identities/changes", { headers: internal })
      expect(answer.status).toBe(403)
      expect(answer.body.error.code).toBe("internal_api_disabled")
    }))
})
