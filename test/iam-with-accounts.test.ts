/**
 * IAM and accounts started side by side, IAM reaching accounts over its internal routes with the shared token
 * (AccountsDirectory over HTTP, as `npm start` runs them): Carbons created in accounts log in to IAM by email,
 * phone and `c:` id; an unknown identity is 404; a Silicon created by an organization is an accounts Silicon and
 * logs in with its IAM token; deleting the account in accounts ends its IAM session through the changes feed.
 */
import { FetchHttpClient } from "@effect/platform"
import { layer } from "@effect/vitest"
import { AccountsDirectory, type AccountsDirectoryService } from "@platform/accounts-identity-api"
import { TestDatabase } from "@platform/database"
import { InMemoryTransport, type OutgoingMessage } from "@platform/mail"
import { Context, Effect, Layer, ManagedRuntime, Option, Redacted, Schedule } from "effect"
import { expect } from "vitest"
import { AccountsRepo } from "../apps/accounts/src/accounts/AccountsRepo.ts"
import type { CarbonRow } from "../apps/accounts/src/accounts/AccountRow.ts"
import { AccountDeletion } from "../apps/accounts/src/me/AccountDeletion.ts"
import { AccountsTest, AccountsUnderTest } from "../apps/accounts/test/support/AccountsUnderTest.ts"
import { IamApi } from "../apps/iam/src/api.ts"
import { AccountChangesFollowerLive } from "../apps/iam/src/account-changes/AccountChangesFollower.ts"
import { iamMigrations } from "../apps/iam/src/migrations.ts"
import { iamServerWith, IamUnderTest } from "../apps/iam/test/support/IamTest.ts"
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"

const internalToken = "iam-with-accounts-internal-token"

/** Accounts as the test drives it: its URL, and its own services for what has no public route here. */
class AccountsSide extends Context.Tag("test/AccountsSide")<AccountsSide, {
  readonly url: string
  readonly createCarbon: (handle: string, contact: { readonly email?: string; readonly phone?: string }) => Effect.Effect<CarbonRow>
  readonly deleteCarbon: (carbon: CarbonRow) => Effect.Effect<void>
}>() {}

/** IAM as the test drives it: its URL and the messages it sent. */
class IamSide extends Context.Tag("test/IamSide")<IamSide, {
  readonly url: string
  readonly sent: Effect.Effect<ReadonlyArray<OutgoingMessage>>
  /** IAM's own client of accounts' internal routes. */
  readonly directory: AccountsDirectoryService
}>() {}

/** Accounts in its own runtime: two HttpApi servers built in one layer would share one router. */
const accountsSide = Layer.scoped(AccountsSide, Effect.gen(function*() {
  const runtime = yield* Effect.acquireRelease(
    Effect.sync(() =>
      ManagedRuntime.make(
        Layer.mergeAll(AccountsRepo.Default, AccountDeletion.Default).pipe(
          Layer.provideMerge(AccountsTest({ internalToken: Option.some(Redacted.make(internalToken)) }))
        )
      )
    ),
    (runtime) => runtime.disposeEffect
  )
  const { url } = yield* Effect.promise(() => runtime.runPromise(AccountsUnderTest))
  const inAccounts = <A, E>(effect: Effect.Effect<A, E, AccountsRepo | AccountDeletion>) =>
    Effect.promise(() => runtime.runPromise(Effect.orDie(effect)))
  return {
    url,
    createCarbon: (handle, contact) =>
      inAccounts(Effect.flatMap(AccountsRepo, (accounts) => accounts.createCarbon({ id: `c:${handle}`, displayName: `Carbon ${handle}`, ...contact }))),
    deleteCarbon: (carbon) => inAccounts(Effect.flatMap(AccountDeletion, (deletion) => deletion.deleteCarbon(carbon, `c:${carbon.handle}`)))
  }
}))

const iamSide = Layer.unwrapEffect(Effect.map(AccountsSide, ({ url }) => {
  const directory = AccountsDirectory.layer({ baseUrl: url, token: Redacted.make(internalToken) }).pipe(Layer.provide(FetchHttpClient.layer))
  const iam = iamServerWith(TestDatabase.layer(iamMigrations), directory, { accountsUrl: url })
  return Layer.effect(IamSide, Effect.gen(function*() {
    const running = yield* IamUnderTest
    const transport = yield* InMemoryTransport
    return { url: running.url, sent: transport.sent, directory: yield* AccountsDirectory }
  })).pipe(Layer.provide(AccountChangesFollowerLive.pipe(Layer.provideMerge(iam))))
}))

const iamClient = (bearer?: string) =>
  Effect.flatMap(IamSide, ({ url }) =>
    HttpApiClient.make(IamApi, {
      baseUrl: url,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }))
    })).pipe(Effect.provide(FetchHttpClient.layer))

/** The code IAM sent to `to` after it had sent `seen` messages there. */
const codeSentTo = (to: string, seen: number) =>
  Effect.flatMap(IamSide, ({ sent }) =>
    Effect.flatMap(sent, (messages) => {
      const mine = messages.filter((message) => message.to === to)
      return mine.length > seen && mine.at(-1)?.code != null ? Effect.succeed(mine.at(-1)!.code!) : Effect.fail("waiting" as const)
    }).pipe(Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("60 seconds"))), Effect.orDie))

const countTo = (to: string) =>
  Effect.flatMap(IamSide, ({ sent }) => Effect.map(sent, (messages) => messages.filter((message) => message.to === to).length))

/** Logs in to IAM with a code sent to each of `to`, answering with the code sent to `answerWith`. */
const login = (payload: { email?: string; phone_number?: string; carbon_id?: string }, to: ReadonlyArray<string>, answerWith: string) =>
  Effect.gen(function*() {
    const client = yield* iamClient()
    const seen = yield* Effect.forEach(to, countTo)
    const challenge = yield* client.login.createChallenge({ payload })
    const codes = yield* Effect.forEach(to, (address, i) => codeSentTo(address, seen[i]!))
    const code = codes[to.indexOf(answerWith)]!
    return yield* client.login.verify({ path: { session_id: challenge.session_id }, payload: { code } })
  })

const unique = () => Math.random().toString(36).slice(2, 8)

layer(Layer.provideMerge(iamSide, accountsSide), { excludeTestServices: true })("IAM with accounts", (it) => {
  it.effect("a Carbon created in accounts logs in to IAM by email, by phone and by c: id (both channels, either code)", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountsSide
      const handle = `ada${unique()}`
      const email = `${handle}@example.com`
      const phone = `+1415${Math.floor(2000000 + Math.random() * 7000000)}`
      const carbon = yield* accounts.createCarbon(handle, { email, phone })

      const byEmail = yield* login({ email }, [email], email)
      const session = yield* (yield* iamClient(byEmail.access_token)).sessions.current()
      expect(session.identity).toEqual({ uuid: carbon.uuid, id: `c:${handle}`, kind: "carbon" })

      const byPhone = yield* login({ phone_number: phone }, [phone], phone)
      expect(byPhone.access_token).toMatch(/^iat_/)
      const byIdAnsweredByPhone = yield* login({ carbon_id: `c:${handle}` }, [email, phone], phone)
      const byIdAnsweredByEmail = yield* login({ carbon_id: `c:${handle}` }, [email, phone], email)
      for (const pair of [byIdAnsweredByPhone, byIdAnsweredByEmail]) {
        expect((yield* (yield* iamClient(pair.access_token)).sessions.current()).identity.uuid).toBe(carbon.uuid)
      }
    }))

  it.effect("an identity accounts does not know is 404 at login", () =>
    Effect.gen(function*() {
      const client = yield* iamClient()
      const refused = yield* Effect.flip(client.login.createChallenge({ payload: { email: `nobody${unique()}@example.com` } }))
      expect(refused).toMatchObject({ code: "identity_not_found" })
    }))

  it.effect("an organization's Silicon is an accounts Silicon in its creator's custody and logs in with its IAM token", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountsSide
      const { directory, url } = yield* IamSide
      const handle = `grace${unique()}`
      const email = `${handle}@example.com`
      yield* accounts.createCarbon(handle, { email })
      const pair = yield* login({ email }, [email], email)
      const client = yield* iamClient(pair.access_token)
      const { organization } = yield* client.organizations.create({ payload: { name: "Compilers" } })
      const created = yield* client.organizationSilicons.create({
        path: { organization_id: organization.id },
        payload: { id: `si:helper${unique()}`, display_name: "Helper" }
      })
      const inAccounts = yield* directory.siliconById(created.member.identity.id)
      expect(inAccounts).toMatchObject({ uuid: created.member.identity.uuid, kind: "silicon", status: "active" })

      const basic = (password: string) => `Basic ${Buffer.from(`${created.member.identity.id}:${password}`).toString("base64")}`
      const token = (password: string) =>
        Effect.promise(() => fetch(`${url}/api/v1/silicon-auth/token`, { method: "POST", headers: { authorization: basic(password) } }))
      const signedIn = yield* token(created.token)
      expect(signedIn.status).toBe(200)
      const wrong = yield* token(`stk-${"0".repeat(32)}`)
      expect(wrong.status).toBe(401)
    }))

  it.effect("deleting the account in accounts ends its IAM session (the changes feed), and it can no longer log in", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountsSide
      const handle = `lin${unique()}`
      const email = `${handle}@example.com`
      const carbon = yield* accounts.createCarbon(handle, { email })
      const pair = yield* login({ email }, [email], email)
      const signedIn = yield* iamClient(pair.access_token)
      expect((yield* signedIn.sessions.current()).identity.uuid).toBe(carbon.uuid)

      yield* accounts.deleteCarbon(carbon)
      // IAM follows accounts' changes every few seconds: wait for the session to end, not for a fixed time.
      const ended = yield* Effect.flip(signedIn.sessions.current()).pipe(
        Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("60 seconds")))
      )
      expect(ended).toMatchObject({ code: "unauthenticated" })
      const client = yield* iamClient()
      expect(yield* Effect.flip(client.login.createChallenge({ payload: { email } }))).toMatchObject({ code: "identity_not_found" })
    }))
})
