import { SqlClient } from "@effect/sql"
import { AccountNotFound } from "@platform/accounts-identity-api"
import { DEFAULT_PAGE_SIZE, InvalidCursor } from "@platform/http"
import { Effect, Either, Layer, Option } from "effect"
import { type AccountKind, parseAccountId } from "../accounts/AccountId.ts"
import type { AccountRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { type ContactChannel, normalizeAddress } from "@platform/verification-codes"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { validationFailed } from "../accounts/NewCarbon.ts"
import { AccountsApi } from "../api.ts"
import { InternalAuthLive } from "../auth/InternalAuth.ts"
import { CarbonSignups } from "../imports/CarbonSignups.ts"
import { AccountsConfig } from "../config.ts"
import { Custody } from "../silicons/Custody.ts"
import { newSiliconInput, outboundPolicy } from "../silicons/newSiliconInput.ts"
import { formatPosition, readPosition } from "../stream/StreamCursor.ts"
import { IdentityChangesRepo } from "./IdentityChangesRepo.ts"
import { identityFields, IdentityViews, siliconIdentity } from "./IdentityViews.ts"
import { compiledGroup } from "@platform/service"

const notFound = (what: string) => new AccountNotFound({ message: `No account answers to ${what}.` })

const found = (what: string) => <A>(row: Option.Option<A>): Effect.Effect<A, AccountNotFound> =>
  Option.match(row, { onNone: () => Effect.fail(notFound(what)), onSome: Effect.succeed })

/** The account when it is of this kind: a Silicon does not answer on a Carbon's route, nor the reverse. */
const ofKind = (kind: AccountKind, what: string) => (row: AccountRow): Effect.Effect<AccountRow, AccountNotFound> =>
  row.kind === kind ? Effect.succeed(row) : Effect.fail(notFound(what))

const invalidCursor = () =>
  new InvalidCursor({ message: "after is not a cursor this feed gave; send the last cursor received, unchanged, or none." })

/** The one verified address a sign-up comes with: exactly one of email and phone, normalized. */
const signupAddress = (payload: { readonly email?: string | undefined; readonly phone?: string | undefined }) => {
  const given = (["email", "phone"] as const).filter((channel) => payload[channel] !== undefined)
  if (given.length !== 1) return Either.left(validationFailed({ email: "or phone: send exactly one" }))
  const channel: ContactChannel = given[0]!
  return Either.map(
    Either.mapLeft(normalizeAddress(channel, payload[channel]!), (problem) => validationFailed({ [channel]: problem })),
    (address) => ({ channel, address })
  )
}

/** IAM's view of accounts (internal token): resolutions, Carbon creation at sign-up, the changes feed. */
export const InternalIdentitiesLive = compiledGroup(AccountsApi, "internalIdentities", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* AccountsRepo
    const contacts = yield* ContactsRepo
    const views = yield* IdentityViews
    const signups = yield* CarbonSignups
    const changes = yield* IdentityChangesRepo
    const custody = yield* Custody
    const webhooks = outboundPolicy(yield* AccountsConfig)

    const carbonWithVerified = (channel: ContactChannel, address: string) =>
      contacts.findByVerifiedContact(channel, address).pipe(
        // A malformed address is verified on no account.
        Effect.catchTag("ValidationFailed", () => Effect.succeedNone),
        Effect.flatMap(found(`this ${channel}`)),
        Effect.flatMap(ofKind("carbon", `this ${channel}`)),
        Effect.flatMap(views.carbon)
      )

    const holding = (kind: AccountKind, input: string) =>
      Effect.gen(function*() {
        const id = yield* parseAccountId(input, kind)
        if (id.kind !== kind) return yield* notFound(input)
        return yield* Effect.flatMap(accounts.findById(id), found(input))
      })

    return handlers
      .handle("carbonByEmail", ({ path }) => carbonWithVerified("email", path.email))
      .handle("carbonByPhone", ({ path }) => carbonWithVerified("phone", path.phone))
      .handle("carbonById", ({ path }) => Effect.flatMap(holding("carbon", path.id), views.carbon))
      .handle("siliconById", ({ path }) => Effect.map(holding("silicon", path.id), siliconIdentity))
      .handle("byUuid", ({ path }) =>
        accounts.findByUuid(path.uuid).pipe(Effect.flatMap(found(path.uuid)), Effect.flatMap(views.identity)))
      .handle("createCarbon", ({ payload }) =>
        Effect.gen(function*() {
          const { address, channel } = yield* signupAddress(payload)
          const made = yield* sql.withTransaction(signups.createClaimingImport({
            id: payload.id,
            displayName: payload.display_name,
            timezone: payload.timezone ?? "UTC",
            channel,
            address
          })).pipe(Effect.catchTag("SqlError", Effect.die))
          // Created a moment ago: gone since is a defect, not a 404 the route declares.
          const row = yield* accounts.findByUuid(made.uuid).pipe(Effect.flatMap(found(made.uuid)), Effect.orDie)
          return yield* views.carbon(row)
        }))
      .handle("createSilicon", ({ payload }) =>
        Effect.gen(function*() {
          const custodian = yield* accounts.findByUuid(payload.custodian_uuid).pipe(
            Effect.flatMap(found("this custodian uuid")),
            Effect.flatMap(ofKind("carbon", "this custodian uuid"))
          )
          if (custodian.status !== "active") return yield* notFound("this custodian uuid")
          // The custodian's own creation (POST /v1/me/silicons): its STK is generated and never shown here.
          const { input } = yield* newSiliconInput(
            { id: payload.id, display_name: payload.display_name, timezone: payload.timezone },
            webhooks
          )
          const created = yield* custody.createInCustody(custodian.uuid, input)
          return siliconIdentity(created.silicon)
        }))
      .handle("changes", ({ urlParams }) =>
        Effect.gen(function*() {
          const after = urlParams.after === undefined
            ? { txid: 0n, seq: 0n }
            : yield* Option.match(readPosition(urlParams.after), {
              onNone: () => Effect.fail(invalidCursor()),
              onSome: Effect.succeed
            })
          const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
          const rows = yield* changes.after(after, limit + 1)
          const items = rows.slice(0, limit).map(({ account, position }) => ({
            cursor: formatPosition(position),
            kind: account.kind,
            ...identityFields(account)
          }))
          return { items, cursor: items.at(-1)?.cursor ?? formatPosition(after), more: rows.length > limit }
        }))
  })).pipe(
    Layer.provide([
      AccountsRepo.Default,
      ContactsRepo.Default,
      IdentityViews.Default,
      CarbonSignups.Default,
      IdentityChangesRepo.Default,
      Custody.Default,
      InternalAuthLive
    ])
  )
