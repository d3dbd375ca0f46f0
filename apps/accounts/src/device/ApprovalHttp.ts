import { noStore } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect, Layer, Option } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AccountsApi } from "../api.ts"
import { requireCarbon } from "../auth/requireCarbon.ts"
import { type Decision, DeviceCodesRepo } from "./DeviceCodesRepo.ts"
import { deviceRequestOf } from "./DeviceRequest.ts"
import { DeviceCodeDecided, DeviceCodeExpired, DeviceCodeNotFound } from "./errors.ts"
import { decisionsPerCarbon } from "./policy.ts"
import { normalizeUserCode } from "./userCode.ts"
import { compiledGroup, now } from "@platform/service"
import { AccountAuthLive } from "../auth/AccountAuth.ts"


const notFound = () =>
  new DeviceCodeNotFound({
    message: "No device sign-in is waiting for this code.",
    hint: "Check the code shown on the device; codes expire after 10 minutes."
  })

const expired = () =>
  new DeviceCodeExpired({
    message: "This device sign-in has expired.",
    hint: "Start the sign-in again on the device: codes live 10 minutes."
  })

export const DeviceApprovalLive = compiledGroup(AccountsApi, "deviceApproval", (handlers) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const accounts = yield* AccountsRepo
    const codes = yield* DeviceCodesRepo

    /** The calling Carbon's uuid, counted against its window; the typed code in stored form. */
    const carbonAndCode = (typed: string) =>
      Effect.gen(function*() {
        yield* noStore
        const carbon = yield* requireCarbon.pipe(Effect.provideService(AccountsRepo, accounts))
        yield* enforceRateLimit(limiter, decisionsPerCarbon, carbon.uuid)
        const userCode = normalizeUserCode(typed)
        if (userCode === null) return yield* Effect.fail(notFound())
        return { accountUuid: carbon.uuid, userCode }
      })

    const decide = (typed: string, decision: Decision) =>
      Effect.gen(function*() {
        const { accountUuid, userCode } = yield* carbonAndCode(typed)
        const outcome = yield* codes.decide(userCode, decision, accountUuid, yield* now)
        switch (outcome._tag) {
          case "Decided":
            return deviceRequestOf(outcome.row)
          case "NotFound":
            return yield* Effect.fail(notFound())
          case "Expired":
            return yield* Effect.fail(expired())
          case "AlreadyDecided":
            return yield* Effect.fail(
              new DeviceCodeDecided({
                message: `This device sign-in was ${outcome.status} already.`,
                details: { status: outcome.status }
              })
            )
        }
      })

    return handlers
      .handle("lookup", ({ path }) =>
        Effect.gen(function*() {
          const { userCode } = yield* carbonAndCode(path.user_code)
          const found = yield* codes.find(userCode)
          if (Option.isNone(found)) return yield* Effect.fail(notFound())
          if (found.value.expires_at.getTime() <= (yield* now).getTime()) return yield* Effect.fail(expired())
          return deviceRequestOf(found.value)
        }))
      .handle("approve", ({ path }) => decide(path.user_code, "approved"), { uninterruptible: true })
      .handle("deny", ({ path }) => decide(path.user_code, "denied"), { uninterruptible: true })
  })).pipe(Layer.provide([AccountsRepo.Default, DeviceCodesRepo.Default, AccountAuthLive]))
