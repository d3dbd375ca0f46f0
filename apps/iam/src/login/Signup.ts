import { SqlClient } from "@effect/sql"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { randomToken, sha256Hex } from "@platform/crypto"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import { CodeChallenges } from "../challenges/CodeChallenges.ts"
import { carbonIdentity, isActiveCarbon } from "../identities/fromAccounts.ts"
import { LIFETIMES } from "../lifetimes.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { IdentityExists, SignupAlreadyCompleted, SignupExpired, SignupNotFound } from "./errors.ts"
import { type IdentityFields, namedIdentity } from "./namedIdentity.ts"
import { signupChallengesPerClientAddress, signupMessage } from "./policy.ts"
import { SignupSessionsRepo } from "./SignupSessionsRepo.ts"

const identityExists = () =>
  new IdentityExists({ message: "An active Carbon already has this address verified.", hint: "Log in with it instead." })

/** Spec 2's public signup: prove an email or phone, then create the Carbon in accounts within 48 hours. */
export class Signup extends Effect.Service<Signup>()("iam/Signup", {
  effect: Effect.gen(function*() {
    const directory = yield* AccountsDirectory
    const challenges = yield* CodeChallenges
    const sessions = yield* IamSessions
    const signups = yield* SignupSessionsRepo
    const limiter = yield* RateLimiter
    const sql = yield* SqlClient.SqlClient

    return {
      start: (fields: IdentityFields, clientAddress: string) =>
        Effect.gen(function*() {
          yield* enforceRateLimit(limiter, signupChallengesPerClientAddress, clientAddress)
          const named = yield* namedIdentity(fields, ["email", "phone_number"])
          if (named.field === "carbon_id") return yield* Effect.dieMessage("signup names no carbon_id")
          const owner = named.field === "email" ? directory.carbonByEmail(named.email) : directory.carbonByPhone(named.phone)
          const taken = yield* owner.pipe(
            Effect.map(isActiveCarbon),
            Effect.catchTag("AccountNotFound", () => Effect.succeed(false))
          )
          if (taken) return yield* identityExists()
          return yield* challenges.open({
            purpose: "signup",
            ...(named.field === "email"
              ? { subject: `signup:email:${named.email}`, email: named.email }
              : { subject: `signup:phone:${named.phone}`, phone: named.phone }),
            clientAddress,
            message: signupMessage
          })
        }),
      /** A right code opens the signup session for the proven address. */
      verify: (sessionId: string, code: string, clientAddress: string) =>
        challenges.answer({ sessionId, purpose: "signup", code, clientAddress }, (challenge) =>
          Effect.gen(function*() {
            const signupId = randomToken("sgn_")
            const at = yield* now
            const expiresAt = new Date(at.getTime() + Duration.toMillis(LIFETIMES.signupSession))
            const channel = challenge.email !== null ? "email" as const : "phone" as const
            const destination = challenge.email ?? challenge.phone ?? ""
            yield* signups.insert({ digest: sha256Hex(signupId), channel, destination, challengeId: challenge.id, at, expiresAt })
            return { signup_id: signupId, channel, destination, expires_at: expiresAt.toISOString() }
          })),
      /**
       * Creates the Carbon and logs it in, in one transaction with the signup's completion; accounts is
       * asked with a key of this signup, so a retry after a lost answer gets the same Carbon back.
       */
      complete: (signupId: string, profile: { readonly display_name: string; readonly id?: string | undefined }) =>
        Effect.gen(function*() {
          const digest = sha256Hex(signupId)
          const found = yield* signups.lock(digest)
          if (Option.isNone(found)) return yield* new SignupNotFound({ message: "There is no such signup session." })
          const signup = found.value
          if (signup.completed) {
            return yield* new SignupAlreadyCompleted({ message: "This signup is already complete.", hint: "Log in instead." })
          }
          const at = yield* now
          if (signup.expires_at <= at) {
            return yield* new SignupExpired({ message: "This signup session has expired; they last 48 hours.", hint: "Sign up again." })
          }
          const carbon = yield* directory.createCarbon(
            {
              ...(signup.channel === "email" ? { email: signup.destination } : { phone: signup.destination }),
              display_name: profile.display_name,
              ...(profile.id === undefined ? {} : { id: profile.id })
            },
            { idempotencyKey: `iam-signup-${digest.slice(0, 32)}` }
          )
          if (!isActiveCarbon(carbon)) return yield* Effect.dieMessage("accounts created a Carbon that is not active")
          yield* signups.complete(digest, carbon.uuid, at)
          return yield* sessions.open(carbonIdentity(carbon), "code")
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
    }
  }),
  dependencies: [CodeChallenges.Default, IamSessions.Default, SignupSessionsRepo.Default]
}) {}
