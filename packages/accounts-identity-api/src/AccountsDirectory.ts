import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { InvalidCursor, ValidationFailed } from "@platform/http"
import { Context, type Duration, Effect, Layer, type Redacted } from "effect"
import { AccountsIdentityApi } from "./Api.ts"
import { askedWithin } from "./asked.ts"
import {
  type AccountNotFound,
  type AccountsUnavailable,
  type EmailInUse,
  type IdReserved,
  type IdTaken,
  type InvalidId,
  type PhoneInUse
} from "./errors.ts"
import { FakeAccounts, makeFakeAccounts } from "./fakeAccounts.ts"
import type {
  CarbonIdentity,
  Identity,
  IdentityChanges,
  NewCarbonIdentity,
  NewSiliconIdentity,
  SiliconIdentity
} from "./Identity.ts"

/** Why creating a Carbon was refused (each as accounts answers it). */
export type CreateCarbonRefusal = ValidationFailed | InvalidId | IdTaken | IdReserved | EmailInUse | PhoneInUse

/** Why creating a Silicon was refused: its fields or id, or a custodian that is not an active Carbon (AccountNotFound). */
export type CreateSiliconRefusal = ValidationFailed | InvalidId | IdTaken | IdReserved | AccountNotFound

/** Accounts' identities as IAM sees them. Every method fails with AccountsUnavailable when accounts cannot answer. */
export interface AccountsDirectoryService {
  /** The Carbon with this verified email (any case); a malformed address is AccountNotFound. */
  readonly carbonByEmail: (email: string) => Effect.Effect<CarbonIdentity, AccountNotFound | AccountsUnavailable>
  /** The Carbon with this verified phone (E.164); another form is AccountNotFound. */
  readonly carbonByPhone: (phone: string) => Effect.Effect<CarbonIdentity, AccountNotFound | AccountsUnavailable>
  /** The Carbon holding this `c:` id now. */
  readonly carbonById: (id: string) => Effect.Effect<CarbonIdentity, AccountNotFound | InvalidId | AccountsUnavailable>
  /** The Silicon holding this `si:` id now. */
  readonly siliconById: (id: string) => Effect.Effect<SiliconIdentity, AccountNotFound | InvalidId | AccountsUnavailable>
  /** The Carbon or Silicon with this uuid, deleted ones included. */
  readonly byUuid: (uuid: string) => Effect.Effect<Identity, AccountNotFound | AccountsUnavailable>
  /** A new active Carbon for an email or phone the caller verified; `idempotencyKey` makes a retry replay the first answer. */
  readonly createCarbon: (
    carbon: NewCarbonIdentity,
    options?: { readonly idempotencyKey?: string | undefined }
  ) => Effect.Effect<CarbonIdentity, CreateCarbonRefusal | AccountsUnavailable>
  /** A new active Silicon in the custody of an active Carbon; `idempotencyKey` makes a retry replay the first answer. */
  readonly createSilicon: (
    silicon: NewSiliconIdentity,
    options?: { readonly idempotencyKey?: string | undefined }
  ) => Effect.Effect<SiliconIdentity, CreateSiliconRefusal | AccountsUnavailable>
  /** The accounts whose id, display name or status changed after `after` (absent: from the first), at most `limit` (1 to 200, default 50). */
  readonly changes: (
    request?: { readonly after?: string | undefined; readonly limit?: number | undefined }
  ) => Effect.Effect<IdentityChanges, InvalidCursor | AccountsUnavailable>
}

export interface AccountsDirectoryOptions {
  /** Accounts' base URL, e.g. `http://127.0.0.1:4100`. */
  readonly baseUrl: string
  /** ACCOUNTS_INTERNAL_TOKEN. */
  readonly token: Redacted.Redacted<string>
  /** How long one call may take before it is AccountsUnavailable; default 5 seconds. */
  readonly timeout?: Duration.DurationInput | undefined
}

/** Builds the service on `HttpApiClient.make(AccountsIdentityApi)`: the internal token on every request, typed refusals. */
export const makeAccountsDirectory = (options: AccountsDirectoryOptions) =>
  Effect.gen(function*() {
    const client = yield* HttpApiClient.make(AccountsIdentityApi, {
      baseUrl: options.baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
    })
    const api = client.internalIdentities
    const asked = askedWithin(options.timeout)

    const service: AccountsDirectoryService = {
      carbonByEmail: (email) => asked(api.carbonByEmail({ path: { email } })),
      carbonByPhone: (phone) => asked(api.carbonByPhone({ path: { phone } })),
      carbonById: (id) => asked(api.carbonById({ path: { id } })),
      siliconById: (id) => asked(api.siliconById({ path: { id } })),
      byUuid: (uuid) => asked(api.byUuid({ path: { uuid } })),
      createCarbon: (carbon, createOptions) =>
        asked(api.createCarbon({ payload: carbon, headers: { "idempotency-key": createOptions?.idempotencyKey } })),
      createSilicon: (silicon, createOptions) =>
        asked(api.createSilicon({ payload: silicon, headers: { "idempotency-key": createOptions?.idempotencyKey } })),
      changes: (request = {}) => asked(api.changes({ urlParams: { after: request.after, limit: request.limit } }))
    }
    return service
  })

/**
 * IAM's way to accounts' identities. `AccountsDirectory.layer({ baseUrl, token })` calls accounts over
 * HTTP (provide an `HttpClient`, e.g. `FetchHttpClient.layer`); `AccountsDirectory.Test` and
 * `AccountsDirectory.fake(identities)` hold accounts in memory, with `FakeAccounts` to change them.
 */
export class AccountsDirectory extends Context.Tag("@platform/accounts-identity-api/AccountsDirectory")<
  AccountsDirectory,
  AccountsDirectoryService
>() {
  static readonly layer = (options: AccountsDirectoryOptions): Layer.Layer<AccountsDirectory, never, HttpClient.HttpClient> =>
    Layer.effect(AccountsDirectory, makeAccountsDirectory(options))

  /** In memory, starting with `identities`; `FakeAccounts` adds, changes and takes accounts down. */
  static readonly fake = (identities: ReadonlyArray<Identity>): Layer.Layer<AccountsDirectory | FakeAccounts> =>
    Layer.effectContext(Effect.map(
      makeFakeAccounts(identities),
      ({ control, directory }) => Context.make(AccountsDirectory, directory).pipe(Context.add(FakeAccounts, control))
    ))

  /** In memory, with no account yet. */
  static readonly Test: Layer.Layer<AccountsDirectory | FakeAccounts> = AccountsDirectory.fake([])
}
