import { InvalidCursor, ValidationFailed } from "@platform/http"
import { Context, Effect, Ref } from "effect"
import type { AccountsDirectoryService } from "./AccountsDirectory.ts"
import { AccountNotFound, AccountsUnavailable, EmailInUse, IdTaken, InvalidId, PhoneInUse } from "./errors.ts"
import type { CarbonIdentity, Identity, IdentityChange, SiliconIdentity } from "./Identity.ts"

/** What a test does to the in-memory accounts behind `AccountsDirectory.Test`. */
export interface FakeAccountsControl {
  /** Adds or replaces an account; a change of its id, display name or status is added to the changes feed. */
  readonly put: (identity: Identity) => Effect.Effect<void>
  /** Every account held, in the order they were added. */
  readonly identities: Effect.Effect<ReadonlyArray<Identity>>
  /** While true every call fails with AccountsUnavailable, as when accounts is down. */
  readonly setUnavailable: (unavailable: boolean) => Effect.Effect<void>
}

export class FakeAccounts extends Context.Tag("@platform/accounts-identity-api/FakeAccounts")<
  FakeAccounts,
  FakeAccountsControl
>() {}

interface State {
  readonly identities: ReadonlyArray<Identity>
  readonly changes: ReadonlyArray<IdentityChange>
  readonly unavailable: boolean
  readonly created: number
}

// Loose versions of accounts' rules: enough for a caller's tests, not a second source of truth.
const HANDLE = /^[a-z0-9_-]{3,30}$/

const invalidId = (input: string) =>
  new InvalidId({ message: `${JSON.stringify(input)} is not a valid id.`, details: { reason: "invalid" } })

/** `c:x` / `si:x` / a bare handle of kind `bare`, lower-cased; undefined when malformed. */
const parseId = (input: string, bare: "carbon" | "silicon") => {
  const lower = input.toLowerCase()
  const [kind, handle] = lower.startsWith("c:")
    ? ["carbon", lower.slice(2)] as const
    : lower.startsWith("si:")
    ? ["silicon", lower.slice(3)] as const
    : [bare, lower] as const
  return HANDLE.test(handle) ? { kind, id: `${kind === "carbon" ? "c:" : "si:"}${handle}` } : undefined
}

const invalidField = (field: string, problem: string) =>
  new ValidationFailed({ message: `Invalid values: ${field} ${problem}.`, details: { fields: { [field]: problem } } })

const notFound = () => new AccountNotFound({ message: "No account answers to this." })

const checkedDisplayName = (input: string) => {
  const displayName = input.trim()
  return displayName.length < 1 || displayName.length > 100
    ? Effect.fail(invalidField("display_name", "must be 1 to 100 characters"))
    : Effect.succeed(displayName)
}

/** A well-formed id of `kind` that no account holds. */
const freeId = (identities: ReadonlyArray<Identity>, kind: Identity["kind"], wanted: string, serial: number) => {
  const parsed = parseId(wanted, kind)
  if (parsed === undefined || parsed.kind !== kind) return Effect.fail(invalidId(wanted))
  return identities.some((held) => held.id === parsed.id)
    ? Effect.fail(
      new IdTaken({
        message: `The id ${parsed.id} is taken.`,
        details: { suggestions: [`${parsed.id}${serial}`, `${parsed.id}_${serial}`] }
      })
    )
    : Effect.succeed(parsed)
}

const changed = (before: Identity | undefined, after: Identity) =>
  before !== undefined &&
  (before.id !== after.id || before.display_name !== after.display_name || before.status !== after.status)

/**
 * An in-memory AccountsDirectory and its control, for a caller's service-level tests: the same
 * methods, answers and typed refusals as accounts (ids, addresses and display names checked loosely).
 */
export const makeFakeAccounts = (initial: ReadonlyArray<Identity>) =>
  Effect.gen(function*() {
    const state = yield* Ref.make<State>({ identities: initial, changes: [], unavailable: false, created: 0 })

    const put = (identity: Identity) =>
      Ref.update(state, (current) => {
        const before = current.identities.find((held) => held.uuid === identity.uuid)
        const identities = before === undefined
          ? [...current.identities, identity]
          : current.identities.map((held) => held.uuid === identity.uuid ? identity : held)
        if (!changed(before, identity)) return { ...current, identities }
        const { uuid, kind, id, display_name, status } = identity
        const change = { cursor: String(current.changes.length + 1), uuid, kind, id, display_name, status }
        return { ...current, identities, changes: [...current.changes, change] }
      })

    /** The accounts held now, or AccountsUnavailable while "down". */
    const available = Effect.flatMap(Ref.get(state), (current) =>
      current.unavailable
        ? Effect.fail(new AccountsUnavailable({ message: "Accounts is unavailable (fake)." }))
        : Effect.succeed(current))

    const findOne = <I extends Identity>(matches: (identity: Identity) => identity is I) =>
      Effect.gen(function*() {
        const found = (yield* available).identities.find(matches)
        return found === undefined ? yield* notFound() : found
      })

    const carbonWith = (channel: "verified_emails" | "verified_phones", address: string) =>
      findOne((identity): identity is CarbonIdentity => identity.kind === "carbon" && identity[channel].includes(address))

    const byId = <I extends Identity>(kind: I["kind"], input: string) =>
      Effect.gen(function*() {
        yield* available
        const parsed = parseId(input, kind)
        if (parsed === undefined) return yield* invalidId(input)
        return yield* findOne((identity): identity is I => identity.kind === kind && identity.id === parsed.id)
      })

    const directory: AccountsDirectoryService = {
      carbonByEmail: (email) => carbonWith("verified_emails", email.trim().toLowerCase()),
      carbonByPhone: (phone) => carbonWith("verified_phones", phone),
      carbonById: (id) => byId<CarbonIdentity>("carbon", id),
      siliconById: (id) => byId<SiliconIdentity>("silicon", id),
      byUuid: (uuid) => findOne((identity): identity is Identity => identity.uuid === uuid),
      createCarbon: (carbon) =>
        Effect.gen(function*() {
          const current = yield* available
          const email = carbon.email?.trim().toLowerCase()
          const phone = carbon.phone
          if ((email === undefined) === (phone === undefined)) {
            return yield* invalidField("email", "or phone: send exactly one")
          }
          const displayName = yield* checkedDisplayName(carbon.display_name)
          const carbons = current.identities.filter((identity): identity is CarbonIdentity => identity.kind === "carbon")
          if (email !== undefined && carbons.some((held) => held.verified_emails.includes(email))) {
            return yield* new EmailInUse({ message: "This email address is verified on another account." })
          }
          if (phone !== undefined && carbons.some((held) => held.verified_phones.includes(phone))) {
            return yield* new PhoneInUse({ message: "This phone number is verified on another account." })
          }
          const serial = current.created + 1
          const wanted = carbon.id ?? `c:${displayName.toLowerCase().replace(/[^a-z0-9]+/g, "").slice(0, 20) || "user"}${serial}`
          const parsed = yield* freeId(current.identities, "carbon", wanted, serial)
          const made: CarbonIdentity = {
            uuid: `fake${serial}`,
            id: parsed.id,
            kind: "carbon",
            display_name: displayName,
            status: "active",
            verified_emails: email === undefined ? [] : [email],
            verified_phones: phone === undefined ? [] : [phone]
          }
          yield* Ref.update(state, (latest) => ({ ...latest, identities: [...latest.identities, made], created: serial }))
          return made
        }),
      createSilicon: (silicon) =>
        Effect.gen(function*() {
          const current = yield* available
          const displayName = yield* checkedDisplayName(silicon.display_name)
          const custodian = current.identities.find((held) => held.uuid === silicon.custodian_uuid)
          if (custodian === undefined || custodian.kind !== "carbon" || custodian.status !== "active") {
            return yield* new AccountNotFound({ message: "The custodian is not an active Carbon." })
          }
          const serial = current.created + 1
          const parsed = yield* freeId(current.identities, "silicon", silicon.id, serial)
          const made: SiliconIdentity = { uuid: `fake${serial}`, id: parsed.id, kind: "silicon", display_name: displayName, status: "active" }
          yield* Ref.update(state, (latest) => ({ ...latest, identities: [...latest.identities, made], created: serial }))
          return made
        }),
      changes: (request = {}) =>
        Effect.gen(function*() {
          const current = yield* available
          const after = request.after === undefined ? 0 : Number(request.after)
          if (!Number.isSafeInteger(after) || after < 0) {
            return yield* new InvalidCursor({ message: "The cursor is not one this feed gave." })
          }
          const limit = request.limit ?? 50
          const following = current.changes.slice(after)
          const items = following.slice(0, limit)
          return { items, cursor: items.at(-1)?.cursor ?? request.after ?? "0", more: following.length > limit }
        })
    }

    const control: FakeAccountsControl = {
      put,
      identities: Effect.map(Ref.get(state), (current) => current.identities),
      setUnavailable: (unavailable) => Ref.update(state, (current) => ({ ...current, unavailable }))
    }
    return { directory, control } as const
  })
