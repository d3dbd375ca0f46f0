import { clientAddress, noStore, ValidationFailed } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Either, Layer, Option } from "effect"
import { normalizeEmail, normalizePhone, VerificationCodes } from "@platform/verification-codes"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { AccountNotFound } from "../accounts/errors.ts"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { TokenIssuer } from "../oauth/TokenIssuer.ts"
import { compiledGroup, now } from "@platform/service"
import { TokenIssuerLive } from "../silicons/TokenIssuerLive.ts"

export const CLI_LOGIN_PURPOSE = "cli_login"
const CLIENT_LABEL_LIMIT = 100

const startsPerIp: RateLimitRule = {
  id: "cli_login_start",
  operation: "POST /v1/cli/login/start",
  limit: 60,
  window: "10 minutes",
  per: "IP"
}

/**
 * What the message says depends on whether an account uses the address; the
 * answer to the caller does not. Only the person holding the address reads it.
 */
const messageFor = (hasAccount: boolean) => (code: string) =>
  hasAccount
    ? { subject: "Your sign-in code", text: `Your sign-in code is ${code}. It expires in 10 minutes.` }
    : {
      subject: "Sign-in attempt",
      text:
        `Someone asked to sign in with this address, but no account uses it. If it was you, sign up first. Code: ${code}.`
    }

const addressOf = (email: string | undefined, phone: string | undefined, country: string | undefined) => {
  if ((email === undefined) === (phone === undefined)) {
    return Either.left(new ValidationFailed({
      message: "Send exactly one of email and phone.",
      details: { fields: { [email === undefined ? "email" : "phone"]: "send exactly one of email and phone" } }
    }))
  }
  const normalized = email !== undefined ? normalizeEmail(email) : normalizePhone(phone!, country)
  const field = email !== undefined ? "email" : "phone"
  return Either.match(normalized, {
    onLeft: (problem) =>
      Either.left(new ValidationFailed({ message: `The ${field} is not valid.`, details: { fields: { [field]: problem } } })),
    onRight: (destination) =>
      Either.right({ channel: email !== undefined ? "email" as const : "sms" as const, destination, field } as const)
  })
}

export const CliLoginLive = compiledGroup(AccountsApi, "cliLogin", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const codes = yield* VerificationCodes
    const contacts = yield* ContactsRepo
    const issuer = yield* TokenIssuer

    return handlers
      .handle("start", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          const ip = yield* clientAddress(config.trustProxy)
          yield* enforceRateLimit(limiter, startsPerIp, ip)
          const address = yield* addressOf(payload.email, payload.phone, payload.country)
          const account = yield* contacts.findByVerifiedContact(
            address.channel === "email" ? "email" : "phone",
            address.destination
          )
          const challenge = yield* codes.send({
            channel: address.channel,
            destination: address.destination,
            purpose: CLI_LOGIN_PURPOSE,
            clientAddress: ip,
            message: messageFor(Option.isSome(account))
          })
          return { challenge_id: challenge.challenge_id, destination: challenge.destination, expires_at: challenge.expires_at }
        }))
      .handle("verify", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          const verified = yield* codes.verify({
            challengeId: payload.challenge_id,
            purpose: CLI_LOGIN_PURPOSE,
            code: payload.code
          })
          // The code went to this address, checked when it was sent: it cannot fail validation now.
          const account = yield* contacts.findByVerifiedContact(
            verified.channel === "email" ? "email" : "phone",
            verified.destination
          ).pipe(Effect.catchTag("ValidationFailed", Effect.die))
          if (Option.isNone(account) || account.value.status !== "active") {
            return yield* Effect.fail(
              new AccountNotFound({ message: "No account uses this address. Sign up first, then sign in." })
            )
          }
          return yield* issuer.signIn({
            accountUuid: account.value.uuid,
            clientLabel: payload.client_label === undefined ? null : payload.client_label.slice(0, CLIENT_LABEL_LIMIT),
            method: "cli_code",
            now: yield* now
          })
        }), { uninterruptible: true })
  })).pipe(Layer.provide([TokenIssuerLive, ContactsRepo.Default]))
