import { SqlClient } from "@effect/sql"
import { randomDigits } from "@platform/crypto"
import { MessageOutbox } from "@platform/mail"
import { now } from "@platform/service"
import { codeDigest } from "@platform/verification-codes"
import { Duration, Effect, Layer } from "effect"
import { LIFETIMES } from "../lifetimes.ts"
import { DevelopmentPhoneCodes } from "./DevelopmentPhoneCodes.ts"
import { PhoneVerifier } from "./PhoneVerifier.ts"

const CODE_DIGITS = 6

/**
 * Development's phone provider: IAM makes the code itself and sends it through the outbox as an
 * SMS, which without an SMS transport lands in the development mailbox (the test mailbox in tests).
 */
export const DevelopmentPhoneVerifier = Layer.effect(
  PhoneVerifier,
  Effect.gen(function*() {
    const codes = yield* DevelopmentPhoneCodes
    const outbox = yield* MessageOutbox
    const sql = yield* SqlClient.SqlClient
    return {
      start: (phone) =>
        Effect.gen(function*() {
          const code = randomDigits(CODE_DIGITS)
          const at = yield* now
          yield* codes.put(phone, codeDigest(phone, code), new Date(at.getTime() + Duration.toMillis(LIFETIMES.oneTimeCode)))
          yield* outbox.enqueue({
            to: phone,
            channel: "sms",
            subject: "Verification code",
            text: `Your verification code is ${code}. It expires in 10 minutes.`,
            code
          }).pipe(Effect.orDie)
        }).pipe(sql.withTransaction, Effect.orDie, Effect.provideService(SqlClient.SqlClient, sql)),
      check: (phone, code) => Effect.flatMap(now, (at) => codes.consume(phone, codeDigest(phone, code), at))
    }
  })
).pipe(Layer.provide(DevelopmentPhoneCodes.Default))
