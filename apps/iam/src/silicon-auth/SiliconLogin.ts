import { AccountsDirectory, IdentityNotActive, type SiliconIdentity } from "@platform/accounts-identity-api"
import { sha256Hex } from "@platform/crypto"
import { InvalidCredentials, loginLocked } from "@platform/rate-limit"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { Identity } from "../identities/Identity.ts"
import { SiliconCredentials } from "./SiliconCredentials.ts"

const invalidCredentials = () =>
  new InvalidCredentials({
    message: "The Silicon id or its IAM token is wrong.",
    hint: "Send the si: id as username and the stk- token as password (HTTP Basic or a form)."
  })

/**
 * A Silicon's login with its `si:` id and IAM token (decisions.md, "Silicon login"). An unknown id
 * and a wrong token take the same path: one question to accounts, one lock check, one credential
 * lookup and one keyed digest compared in constant time (against a dummy when there is no Silicon),
 * one streak update, then the same 401.
 */
export class SiliconLogin extends Effect.Service<SiliconLogin>()("iam/SiliconLogin", {
  effect: Effect.gen(function*() {
    const directory = yield* AccountsDirectory
    const credentials = yield* SiliconCredentials

    return {
      check: (username: string, token: string) =>
        Effect.gen(function*() {
          const found: Option.Option<SiliconIdentity> = yield* directory.siliconById(username).pipe(
            Effect.asSome,
            Effect.catchTags({ AccountNotFound: () => Effect.succeedNone, InvalidId: () => Effect.succeedNone })
          )
          const at = yield* now
          // An unknown id locks the same way, under a digest of what was sent, so a lock never tells that an id exists.
          const subject = Option.match(found, {
            onNone: () => `unknown:${sha256Hex(username.trim().toLowerCase())}`,
            onSome: (silicon) => silicon.uuid
          })
          const lockedUntil = yield* credentials.streaks.lockedUntil(subject, at)
          if (lockedUntil !== null) {
            return yield* loginLocked(lockedUntil, at, "Too many wrong tokens in a row: this Silicon's login is locked for a minute.")
          }
          const right = yield* credentials.matches(Option.map(found, (silicon) => silicon.uuid), token)
          yield* credentials.streaks.record(subject, right, at)
          if (!right || Option.isNone(found)) return yield* invalidCredentials()
          const silicon = found.value
          if (silicon.status !== "active") {
            return yield* new IdentityNotActive({
              message: `This Silicon is ${silicon.status}: it cannot log in.`,
              details: { status: silicon.status }
            })
          }
          const identity: Identity = {
            uuid: silicon.uuid,
            id: silicon.id ?? username,
            kind: "silicon",
            display_name: silicon.display_name,
            status: silicon.status
          }
          return identity
        })
    }
  }),
  dependencies: [SiliconCredentials.Default]
}) {}
