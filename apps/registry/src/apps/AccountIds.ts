import { AccountsDirectory, type Identity } from "@platform/accounts-identity-api"
import { ValidationFailed } from "@platform/http"
import { Effect } from "effect"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const found = <I, E extends { readonly _tag: string }>(lookup: Effect.Effect<I, E>) =>
  lookup.pipe(Effect.catchIf(
    (error): error is Extract<E, { readonly _tag: "AccountNotFound" | "InvalidId" }> =>
      error._tag === "AccountNotFound" || error._tag === "InvalidId",
    () => Effect.succeed(undefined)
  ))

/**
 * The active account a `c:` id, an `si:` id or (when `uuids`) a uuid names now, through accounts: `none` when no
 * active account does, `malformed` when the text is none of those forms.
 */
export const accountNamed = (input: string, options: { readonly uuids: boolean }) =>
  Effect.gen(function*() {
    const directory = yield* AccountsDirectory
    const value = input.trim().toLowerCase()
    const identity: Identity | undefined | "malformed" = value.startsWith("c:")
      ? yield* found(directory.carbonById(value))
      : value.startsWith("si:")
      ? yield* found(directory.siliconById(value))
      : options.uuids && UUID.test(value)
      ? yield* found(directory.byUuid(value))
      : "malformed"
    return identity === "malformed" ? identity : identity?.status === "active" ? identity : "none" as const
  })

/**
 * `c:` ids, `si:` ids and uuids resolved to the uuids of the active accounts holding them now (duplicates
 * once, in order); those no active account answers to are one 422 naming each (`account_ids.N`).
 */
export const resolveAccountIds = (field: string, inputs: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const problems: Record<string, string> = {}
    const uuids: Array<string> = []
    for (const [index, input] of inputs.entries()) {
      const account = yield* accountNamed(input, { uuids: true })
      if (account === "malformed") problems[`${field}.${index}`] = `${JSON.stringify(input)} is not a c: id, an si: id or a uuid`
      else if (account === "none") problems[`${field}.${index}`] = `no active account is ${JSON.stringify(input)}`
      else if (!uuids.includes(account.uuid)) uuids.push(account.uuid)
    }
    if (Object.keys(problems).length > 0) {
      return yield* new ValidationFailed({ message: `Unknown accounts in ${field}.`, details: { fields: problems } })
    }
    return uuids
  })
