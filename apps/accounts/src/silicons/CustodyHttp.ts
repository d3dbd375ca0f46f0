import { decodeCursor, DEFAULT_PAGE_SIZE, noStore, pageOf } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { requireCarbon } from "../auth/requireCarbon.ts"
import { AccountsConfig } from "../config.ts"
import { resolveCustodian } from "./custodianAddress.ts"
import { custodianRequest, type CustodianRequestRow } from "./CustodianRequest.ts"
import { CustodianRequestsRepo, IncomingPosition } from "./CustodianRequestsRepo.ts"
import { Custody } from "./Custody.ts"
import { DobImmutable } from "./errors.ts"
import { newSiliconInput, outboundPolicy } from "./newSiliconInput.ts"
import { FieldCheck } from "../accounts/FieldCheck.ts"
import { siliconFieldRules } from "./siliconFields.ts"
import { SiliconManagement } from "./SiliconManagement.ts"
import { siliconMe } from "./SiliconMe.ts"
import { CustodyPosition, SiliconsRepo } from "./SiliconsRepo.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { requestMediaType } from "../profile/requestMediaType.ts"
import { compiledGroup } from "@platform/service"

const transfers: RateLimitRule = { id: "silicon_transfers", operation: "Transfer requests", limit: 30, window: "1 hour", per: "custodian" }

const optionalCursor = <A, I>(schema: Parameters<typeof decodeCursor<A, I>>[0], cursor: string | undefined) =>
  cursor === undefined ? Effect.succeed(Option.none<A>()) : Effect.map(decodeCursor(schema, cursor), Option.some)

export const CustodianRequestsLive = compiledGroup(AccountsApi, "custodianRequests", (handlers) =>
  Effect.gen(function*() {
    const requests = yield* CustodianRequestsRepo
    const custody = yield* Custody
    const { publicUrl } = yield* AccountsConfig
    const view = (row: CustodianRequestRow) => custodianRequest(row, publicUrl)
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const carbon = yield* requireCarbon
          const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
          const after = yield* optionalCursor(IncomingPosition, urlParams.cursor)
          const rows = yield* requests.listIncoming(carbon.uuid, Option.fromNullable(urlParams.status), limit, after)
          const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.id] as const)
          return { items: page.items.map(view), next_cursor: page.nextCursor }
        }))
      .handle("accept", ({ path }) =>
        Effect.gen(function*() {
          const carbon = yield* requireCarbon
          return view(yield* custody.accept(carbon.uuid, path.id))
        }), { uninterruptible: true })
      .handle("decline", ({ path }) =>
        Effect.gen(function*() {
          const carbon = yield* requireCarbon
          return view(yield* custody.decline(carbon.uuid, path.id))
        }), { uninterruptible: true })
  })).pipe(Layer.provide([AccountsRepo.Default, CustodianRequestsRepo.Default, Custody.Default, AccountAuthLive]))

export const MySiliconsLive = compiledGroup(AccountsApi, "mySilicons", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const silicons = yield* SiliconsRepo
    const custody = yield* Custody
    const manage = yield* SiliconManagement
    const webhooks = outboundPolicy(config)

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const carbon = yield* requireCarbon
          const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
          const after = yield* optionalCursor(CustodyPosition, urlParams.cursor)
          const rows = yield* silicons.listInCustody(carbon.uuid, limit, after)
          const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.uuid] as const)
          return { items: yield* Effect.forEach(page.items, manage.view), next_cursor: page.nextCursor }
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          const carbon = yield* requireCarbon
          const { generatedStk, input } = yield* newSiliconInput(payload, webhooks)
          const created = yield* custody.createInCustody(carbon.uuid, input)
          return { silicon: siliconMe(created.silicon, config.publicUrl), stk: generatedStk, webhook_secret: created.webhookSecret }
        }), { uninterruptible: true })
      .handle("get", ({ path }) =>
        Effect.flatMap(requireCarbon, (carbon) => Effect.flatMap(manage.inCustody(carbon.uuid, path.uuid), manage.view)))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const carbon = yield* requireCarbon
          const silicon = yield* manage.inCustody(carbon.uuid, path.uuid)
          if (payload.dob !== undefined && payload.dob !== silicon.dob) {
            return yield* new DobImmutable({ message: "A Silicon's dob is its creation date and cannot change." })
          }
          const fields = new FieldCheck()
          const displayName = fields.check("display_name", payload.display_name, siliconFieldRules.displayName)
          const timezone = fields.check("timezone", payload.timezone, siliconFieldRules.timezone)
          yield* fields.result
          return yield* manage.updateDetails(carbon.uuid, path.uuid, { displayName, timezone })
        }))
      .handle("photo", ({ path, payload }) =>
        Effect.gen(function*() {
          const carbon = yield* requireCarbon
          return yield* manage.uploadPhoto(carbon.uuid, path.uuid, yield* requestMediaType, payload)
        }))
      .handle("changeId", ({ path, payload }) =>
        Effect.flatMap(requireCarbon, (carbon) => manage.changeId(carbon.uuid, path.uuid, payload.id)))
      .handle("rotateStk", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          const carbon = yield* requireCarbon
          return yield* manage.rotateStk(carbon.uuid, path.uuid, payload.stk)
        }), { uninterruptible: true })
      .handle("transfer", ({ path, payload }) =>
        Effect.gen(function*() {
          const carbon = yield* requireCarbon
          yield* manage.inCustody(carbon.uuid, path.uuid)
          yield* enforceRateLimit(limiter, transfers, carbon.uuid)
          const to = yield* resolveCustodian("to", payload.to)
          return custodianRequest(yield* custody.transfer(carbon.uuid, path.uuid, to), config.publicUrl)
        }), { uninterruptible: true })
      .handle("cancelTransfer", ({ path }) =>
        Effect.flatMap(requireCarbon, (carbon) =>
          Effect.map(custody.cancelTransfer(carbon.uuid, path.uuid), (row) => custodianRequest(row, config.publicUrl))))
      .handle("delete", ({ path }) =>
        Effect.flatMap(requireCarbon, (carbon) => manage.remove(carbon.uuid, path.uuid)), { uninterruptible: true })
  })).pipe(
  Layer.provide([
    ContactsRepo.Default,
    AccountsRepo.Default,
    SiliconsRepo.Default,
    SiliconManagement.Default,
    Custody.Default,
    AccountAuthLive
  ])
)
