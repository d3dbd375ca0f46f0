import { SqlClient } from "@effect/sql"
import { sha256Hex, verifyAgainstDummy, verifySecret } from "@platform/crypto"
import { Effect, Either, Option } from "effect"
import { parseAccountId } from "../accounts/AccountId.ts"
import { InvalidId } from "../accounts/errors.ts"
import { isUuidShaped } from "../accounts/uuidPermutation.ts"
import { now } from "@platform/service"
import { loginLocked } from "@platform/rate-limit"
import { InvalidCredentials, InvalidStk, type LoginLocked } from "./errors.ts"
import { makeLoginStreaks } from "./loginStreaks.ts"
import type { SiliconRow } from "./SiliconRow.ts"
import { SiliconsRepo } from "./SiliconsRepo.ts"
import { normalizeStk } from "./stk.ts"

const invalidCredentials = () => new InvalidCredentials({ message: "The id or the STK is wrong." })

/**
 * The Silicon named at sign-in: `si:<handle>` while it holds that id, or its
 * uuid (which stays after the id is freed). Anything else is 422 invalid_id.
 */
const lookupKey = (input: string): Either.Either<{ readonly handle: string } | { readonly uuid: string }, InvalidId> => {
  const trimmed = input.trim()
  if (trimmed.toLowerCase().startsWith("si:")) {
    return Either.map(parseAccountId(trimmed), (id) => ({ handle: id.handle }))
  }
  return isUuidShaped(trimmed) ? Either.right({ uuid: trimmed }) : Either.left(
    new InvalidId({
      message: `${JSON.stringify(input)} is not a Silicon id.`,
      hint: "Sign in with si:<handle> or the Silicon's uuid.",
      details: { reason: "invalid" }
    })
  )
}

/**
 * STK sign-in's credential check. An unknown id and a wrong STK take the same
 * path: one lookup, one lock check, one scrypt (against a dummy hash when
 * there is no Silicon) and one streak update, then the same 401.
 */
export class StkLogin extends Effect.Service<StkLogin>()("accounts/StkLogin", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const silicons = yield* SiliconsRepo
    const streaks = makeLoginStreaks(sql)

    const check = (id: string, stkInput: string): Effect.Effect<SiliconRow, InvalidId | InvalidStk | InvalidCredentials | LoginLocked> =>
      Effect.gen(function*() {
        const key = yield* lookupKey(id)
        const stk = yield* Either.mapLeft(normalizeStk(stkInput), (problem) => new InvalidStk({ message: `The STK ${problem}.` }))
        const at = yield* now
        const found = "uuid" in key ? yield* silicons.find(key.uuid) : yield* silicons.findByHandle(key.handle)
        const subject = Option.match(found, {
          onNone: () => `unknown:${sha256Hex(JSON.stringify(key))}`,
          onSome: (silicon) => silicon.uuid
        })
        const lockedUntil = yield* streaks.lockedUntil(subject, at)
        if (lockedUntil !== null) {
          return yield* loginLocked(lockedUntil, at, "Too many wrong STKs in a row: sign-in is locked for a minute.")
        }
        // The same round trip either way: an unknown Silicon's lookup finds no hash.
        const hash = yield* silicons.stkHashOf(Option.match(found, { onNone: () => "", onSome: (silicon) => silicon.uuid }))
        const right = Option.isSome(hash) ? yield* verifySecret(stk, hash.value) : yield* verifyAgainstDummy(stk)
        yield* streaks.record(subject, right, at)
        if (!right || Option.isNone(found)) return yield* invalidCredentials()
        return found.value
      }).pipe(Effect.withSpan("StkLogin.check"))

    return { check, sweep: streaks.sweep } as const
  }),
  dependencies: [SiliconsRepo.Default]
}) {}
