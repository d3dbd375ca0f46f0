import { AccountsDirectory } from "@platform/accounts-identity-api"
import { ValidationFailed } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect } from "effect"
import { CodeChallenges } from "../challenges/CodeChallenges.ts"
import { carbonIdentity, isActiveCarbon } from "../identities/fromAccounts.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { IdentityNotFound } from "./errors.ts"
import { type IdentityFields, type NamedIdentity, namedIdentity } from "./namedIdentity.ts"
import { loginChallengesPerClientAddress, loginMessage } from "./policy.ts"

const noActiveCarbon = (named: NamedIdentity) =>
  new IdentityNotFound({
    message: named.field === "carbon_id"
      ? "No active Carbon has this id."
      : `No active Carbon has this ${named.field === "email" ? "email address" : "phone number"} verified.`,
    hint: "Check it, or sign up."
  })

/** Carbon login by code (spec 2): the identity is accounts', the challenge and the session IAM's. */
export class CarbonLogin extends Effect.Service<CarbonLogin>()("iam/CarbonLogin", {
  effect: Effect.gen(function*() {
    const directory = yield* AccountsDirectory
    const challenges = yield* CodeChallenges
    const sessions = yield* IamSessions
    const limiter = yield* RateLimiter

    /** The active Carbon owning what was named; an inactive one is as unknown as none. */
    const carbonNamed = (named: NamedIdentity) => {
      const found = named.field === "email"
        ? directory.carbonByEmail(named.email)
        : named.field === "phone_number"
        ? directory.carbonByPhone(named.phone)
        : directory.carbonById(named.carbonId).pipe(
          Effect.catchTag("InvalidId", (refused) =>
            Effect.fail(new ValidationFailed({ message: refused.message, details: { fields: { carbon_id: "is not a valid c: id" } } })))
        )
      return found.pipe(
        Effect.filterOrFail(isActiveCarbon, () => noActiveCarbon(named)),
        Effect.catchTag("AccountNotFound", () => Effect.fail(noActiveCarbon(named)))
      )
    }

    return {
      /** Sends the code: to what was named, or for a `c:` id to the Carbon's primary email and phone. */
      start: (fields: IdentityFields, clientAddress: string) =>
        Effect.gen(function*() {
          yield* enforceRateLimit(limiter, loginChallengesPerClientAddress, clientAddress)
          const named = yield* namedIdentity(fields, ["email", "phone_number", "carbon_id"])
          const carbon = yield* carbonNamed(named)
          const email = named.field === "email" ? named.email : named.field === "carbon_id" ? carbon.verified_emails[0] : undefined
          const phone = named.field === "phone_number" ? named.phone : named.field === "carbon_id" ? carbon.verified_phones[0] : undefined
          if (email === undefined && phone === undefined) return yield* noActiveCarbon(named)
          return yield* challenges.open({
            purpose: "login",
            subject: `login:${carbon.uuid}`,
            identityUuid: carbon.uuid,
            email,
            phone,
            clientAddress,
            message: loginMessage
          })
        }),
      /**
       * A right code opens the session, in one transaction with the code's use. Accounts is asked
       * again first: a Carbon deleted since the code was sent does not log in.
       */
      verify: (sessionId: string, code: string, clientAddress: string) =>
        challenges.answer({ sessionId, purpose: "login", code, clientAddress }, (challenge) =>
          Effect.gen(function*() {
            const notActive = new IdentityNotFound({ message: "This Carbon is no longer active.", hint: "Sign up again." })
            const identity = yield* directory.byUuid(challenge.identity_uuid ?? "").pipe(
              Effect.catchTag("AccountNotFound", () => Effect.fail(notActive))
            )
            if (identity.kind !== "carbon" || !isActiveCarbon(identity)) return yield* notActive
            return yield* sessions.open(carbonIdentity(identity), "code")
          }))
    }
  }),
  dependencies: [CodeChallenges.Default, IamSessions.Default]
}) {}
