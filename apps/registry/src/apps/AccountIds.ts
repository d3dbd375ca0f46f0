import { AccountsDirectory } from "@platform/accounts-identity-api"
import { ValidationFailed } from "@platform/http"
import { Effect } from "effect"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `c:` ids, `si:` ids and uuids resolved to the uuids of the active accounts holding them now (duplicates
 * once, in order); those no active account answers to are one 422 naming each (`account_ids.N`).
 */
export const resolveAccountIds = (field: string, inputs: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const directory = yield* AccountsDirectory
    const problems: Record<string, string> = {}
    const uuids: Array<string> = []
    for (const [index, input] of inputs.entries()) {
      const value = input.trim()
      const lower = value.toLowerCase()
      const found = <I, E extends { readonly _tag: string }>(lookup: Effect.Effect<I, E>) =>
        lookup.pipe(Effect.catchIf(
          (error): error is Extract<E, { readonly _tag: "AccountNotFound" | "InvalidId" }> =>
            error._tag === "AccountNotFound" || error._tag === "InvalidId",
          () => Effect.succeed(undefined)
        ))
      const lookup = lower.startsWith("c:")
        ? found(directory.carbonById(value))
        : lower.startsWith("si:")
        ? found(directory.siliconById(value))
        : UUID.test(value)
        ? found(directory.byUuid(lower))
        : undefined
      const identity = lookup === undefined ? undefined : yield* lookup
      if (identity === undefined || identity.status !== "active") {
        problems[`${field}.${index}`] = lookup === undefined
          ? `${JSON.stringify(input)} is not a c: id, an si: id or a uuid`
          : `no active account is ${JSON.stringify(input)}`
      } else if (!uuids.includes(identity.uuid)) {
        uuids.push(identity.uuid)
      }
    }
    if (Object.keys(problems).length > 0) {
      return yield* new ValidationFailed({ message: `Unknown accounts in ${field}.`, details: { fields: problems } })
    }
    return uuids
  })
