import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Either, Layer, Option } from "effect"
import { parseAccountId } from "../accounts/AccountId.ts"
import { accountSummary } from "../accounts/AccountSummary.ts"
import { AccountNotFound, InvalidUuid } from "../accounts/errors.ts"
import { isUuidShaped } from "../accounts/uuidPermutation.ts"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { appAccount } from "../oauth/AppAccount.ts"
import { InvalidIdInPath } from "./errors.ts"
import { CurrentLookupCaller, LookupCallerAuthLive } from "./LookupCaller.ts"
import { type LookupKey, LookupsRepo } from "./LookupsRepo.ts"
import { compiledGroup } from "@platform/service"

export const lookupsPerCaller: RateLimitRule = {
  id: "account_lookups",
  operation: "Account lookups (by uuid and by id together)",
  limit: 600,
  window: "1 minute",
  per: "app or account"
}

const notFound = () => new AccountNotFound({ message: "No account with that uuid or id is visible to you." })

export const LookupsLive = compiledGroup(AccountsApi, "lookups", (handlers) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const lookups = yield* LookupsRepo
    const { publicUrl } = yield* AccountsConfig

    /** Counts the caller's lookup, then reads the account the caller may see. */
    const lookUp = <E>(key: Effect.Effect<LookupKey, E>) =>
      Effect.gen(function*() {
        const caller = yield* CurrentLookupCaller
        yield* enforceRateLimit(limiter, lookupsPerCaller, caller.kind === "app" ? `app:${caller.appId}` : `account:${caller.uuid}`)
        const named = yield* key
        if (caller.kind === "app") {
          const member = yield* lookups.forApp(caller.appId, named)
          if (Option.isNone(member)) return yield* Effect.fail(notFound())
          return appAccount(member.value, caller.appId, member.value.scopes.join(" "), publicUrl)
        }
        const summary = yield* lookups.forAccount(named)
        if (Option.isNone(summary)) return yield* Effect.fail(notFound())
        return accountSummary(summary.value, publicUrl)
      })

    return handlers
      .handle("byUuid", ({ path }) =>
        lookUp(
          isUuidShaped(path.uuid)
            ? Effect.succeed({ uuid: path.uuid })
            : Effect.fail(new InvalidUuid({ message: "A uuid is 3 or more characters of a-z A-Z 0-9." }))
        ))
      .handle("byId", ({ path }) =>
        lookUp(Either.match(parseAccountId(path.id), {
          onLeft: (invalid) =>
            Effect.fail(new InvalidIdInPath({ message: invalid.message, hint: invalid.hint, details: invalid.details })),
          onRight: (id) => Effect.succeed({ id })
        })))
  })).pipe(Layer.provide([LookupsRepo.Default, LookupCallerAuthLive]))
