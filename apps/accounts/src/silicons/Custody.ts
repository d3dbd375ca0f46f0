import { SqlClient } from "@effect/sql"
import { hashSecret, randomToken, sha256Hex } from "@platform/crypto"
import { Duration, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { formatAccountId } from "../accounts/AccountId.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { IdsRepo } from "../accounts/IdsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { now } from "@platform/service"
import type { CustodianAddress } from "./custodianAddress.ts"
import { CUSTODIAN_REQUEST_DAYS, CUSTODY_PAGE_PATH, type CustodianRequestRow } from "./CustodianRequest.ts"
import { CustodianRequestsRepo, type LockedRequest } from "./CustodianRequestsRepo.ts"
import {
  AlreadyCustodian,
  CustodianRequestExpired,
  CustodianRequestNotFound,
  CustodianRequestNotPending,
  CustodianRequestPending,
  SiliconNotFound,
  TransferNotFound,
  TransferPending,
  SiliconNotPending,
  TransferStale,
  TransferToSelf
} from "./errors.ts"
import { notifyCustodian } from "./notifyCustodian.ts"
import { SiliconsRepo } from "./SiliconsRepo.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"

/** At most this many self-created Silicons wait for one custodian (spec 1, Limits). */
export const PENDING_PER_CUSTODIAN = 20
export const REQUEST_TOKEN_PREFIX = "sarq_"
const REQUEST_LIFETIME = Duration.days(CUSTODIAN_REQUEST_DAYS)

/** A new Silicon's fields, validated; the STK in clear (it is hashed here and shown once by the caller). */
export interface SiliconInput {
  readonly handle: string
  readonly displayName: string
  readonly timezone: string
  readonly pfpUrl: string | null
  readonly stk: string
  readonly webhookUrl: string | null
}

/**
 * How a decision ended, committed before the caller hears of it: done; the
 * request's 14 days had passed (it is now expired: 410); or a transfer whose
 * custody changed since it was asked (it is now cancelled: 409 transfer_stale).
 */
type Outcome = "done" | "expired" | "stale" | "not_pending"

const expired = () => new CustodianRequestExpired({ message: "This custodian request expired after 14 days." })

/** Custody of Silicons: self-creation and its request, custodian-made Silicons, decisions, transfers, expiry. */
export class Custody extends Effect.Service<Custody>()("accounts/Custody", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AccountsConfig
    const ids = yield* IdsRepo
    const contacts = yield* ContactsRepo
    const silicons = yield* SiliconsRepo
    const requests = yield* CustodianRequestsRepo
    const secretsAtRest = yield* SecretsAtRest

    const notifyTo = (to: CustodianAddress, message: { readonly subject: string; readonly text: string }) =>
      notifyCustodian(to, message).pipe(
        Effect.provideService(ContactsRepo, contacts),
        Effect.provideService(SqlClient.SqlClient, sql)
      )

    /** The new Silicon's rows; HandleTaken becomes 409 id_taken with suggestions once the transaction is over. */
    const insertSilicon = (input: SiliconInput, custodianUuid: string | null, at: Date) =>
      Effect.gen(function*() {
        const webhookSecret = input.webhookUrl === null ? null : randomToken("whsec_")
        const uuid = yield* silicons.insert({
          handle: input.handle,
          displayName: input.displayName,
          timezone: input.timezone,
          pfpUrl: input.pfpUrl,
          stkHash: yield* hashSecret(input.stk),
          webhookUrl: input.webhookUrl,
          webhookSecret: webhookSecret === null ? null : secretsAtRest.seal("webhook_secret", webhookSecret),
          custodianUuid,
          at
        })
        return { uuid, webhookSecret }
      })

    const reloaded = (uuid: string) =>
      Effect.flatMap(silicons.find(uuid), Option.match({
        onNone: () => Effect.dieMessage(`Silicon ${uuid} vanished`),
        onSome: Effect.succeed
      }))

    const reloadedRequest = (id: string) =>
      Effect.flatMap(requests.find(id), Option.match({
        onNone: () => Effect.dieMessage(`custodian request ${id} vanished`),
        onSome: Effect.succeed
      }))

    /**
     * POST /v1/silicons: a pending Silicon, its initial request (polled with the
     * returned `sarq_` token) and the message to the custodian, in one transaction.
     */
    const selfCreate = (input: SiliconInput, to: CustodianAddress) =>
      Effect.gen(function*() {
        const at = yield* now
        const requestToken = randomToken(REQUEST_TOKEN_PREFIX)
        const requestId = randomUUID()
        const created = yield* sql.withTransaction(Effect.gen(function*() {
          yield* requests.lockCustodian(to)
          if ((yield* requests.pendingInitialCount(to.toUuid, to.toEmail)) >= PENDING_PER_CUSTODIAN) {
            return yield* new CustodianRequestPending({
              message: `${PENDING_PER_CUSTODIAN} self-created Silicons already wait for this custodian.`,
              hint: "Ask the custodian to decide on the waiting requests first."
            })
          }
          const silicon = yield* insertSilicon(input, null, at)
          yield* requests.insert({
            id: requestId,
            kind: "initial",
            siliconUuid: silicon.uuid,
            fromUuid: null,
            toUuid: to.toUuid,
            toEmail: to.toEmail,
            requestTokenHash: sha256Hex(requestToken),
            at,
            expiresAt: new Date(at.getTime() + Duration.toMillis(REQUEST_LIFETIME))
          })
          yield* notifyTo(to, {
            subject: `${input.displayName} asks you to be its custodian`,
            text: `The Silicon ${input.displayName} (si:${input.handle}) asks you to be its custodian. ` +
              `Accept or decline at ${config.publicUrl}${CUSTODY_PAGE_PATH} within ${CUSTODIAN_REQUEST_DAYS} days; ` +
              "if you do nothing, it is deleted then."
          })
          return silicon
        })).pipe(
          Effect.catchTags({
            HandleTaken: () => ids.refuseTakenId({ kind: "silicon", handle: input.handle }, at),
            // The Silicon is new: no other request of it can be pending.
            RequestAlreadyPending: Effect.die,
            SqlError: Effect.die
          })
        )
        return {
          silicon: yield* reloaded(created.uuid),
          request: yield* reloadedRequest(requestId),
          requestToken,
          webhookSecret: created.webhookSecret
        }
      }).pipe(Effect.withSpan("Custody.selfCreate"))

    /** POST /v1/me/silicons: an active Silicon in the caller's custody, able to sign in at once. */
    const createInCustody = (custodianUuid: string, input: SiliconInput) =>
      Effect.gen(function*() {
        const at = yield* now
        const created = yield* sql.withTransaction(insertSilicon(input, custodianUuid, at)).pipe(
          Effect.catchTags({
            HandleTaken: () => ids.refuseTakenId({ kind: "silicon", handle: input.handle }, at),
            SqlError: Effect.die
          })
        )
        return { silicon: yield* reloaded(created.uuid), webhookSecret: created.webhookSecret }
      }).pipe(Effect.withSpan("Custody.createInCustody"))

    /** Inside a transaction: a locked pending request passes its 14 days. A self-created Silicon ends with it. */
    const expireLocked = (request: LockedRequest, at: Date) =>
      Effect.gen(function*() {
        yield* requests.decide(request.id, "expired", at)
        if (request.kind === "initial") yield* silicons.end(request.silicon_uuid, "expired", at)
      })

    const accept = (request: LockedRequest, carbonUuid: string, at: Date) =>
      Effect.gen(function*() {
        const silicon = yield* reloaded(request.silicon_uuid)
        if (request.kind === "initial") {
          if (silicon.status !== "pending_custodian") {
            // The Silicon ended meanwhile: the request goes with it, and the answer says why.
            yield* requests.decide(request.id, "cancelled", at)
            return "not_pending" as Outcome
          }
          yield* silicons.activate(request.silicon_uuid, at)
        } else {
          if (silicon.status !== "active" || silicon.custodian?.uuid !== request.from_uuid) {
            yield* requests.decide(request.id, "cancelled", at)
            return "stale" as Outcome
          }
          if (request.from_uuid === carbonUuid) {
            return yield* new AlreadyCustodian({ message: "You are this Silicon's custodian already." })
          }
        }
        yield* silicons.handOver(
          request.silicon_uuid,
          { kind: request.kind, custodian: carbonUuid, previousCustodian: request.from_uuid },
          at
        )
        yield* requests.decide(request.id, "accepted", at, carbonUuid)
        return "done" as Outcome
      })

    /**
     * A Carbon accepts or declines a request addressed to it. Declining an
     * initial request deletes the Silicon and frees its id at once.
     */
    const decide = (carbonUuid: string, requestId: string, decision: "accept" | "decline") =>
      Effect.gen(function*() {
        const at = yield* now
        const outcome = yield* sql.withTransaction(Effect.gen(function*() {
          const locked = yield* requests.lockAddressedTo(requestId, carbonUuid)
          if (Option.isNone(locked)) {
            return yield* new CustodianRequestNotFound({ message: "No custodian request with this id is addressed to you." })
          }
          const request = locked.value
          if (request.status !== "pending") {
            return yield* new CustodianRequestNotPending({
              message: `This request was ${request.status} already.`,
              details: { status: request.status }
            })
          }
          if (request.expires_at.getTime() <= at.getTime()) {
            yield* expireLocked(request, at)
            return "expired" as Outcome
          }
          if (decision === "accept") return yield* accept(request, carbonUuid, at)
          yield* requests.decide(request.id, "declined", at, carbonUuid)
          if (request.kind === "initial") yield* silicons.end(request.silicon_uuid, "declined", at)
          return "done" as Outcome
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        if (outcome === "expired") return yield* expired()
        if (outcome === "not_pending") {
          return yield* new SiliconNotPending({ message: "This Silicon no longer waits for a custodian; the request is cancelled." })
        }
        if (outcome === "stale") {
          return yield* new TransferStale({ message: "The Silicon's custody changed since this transfer was asked; it is cancelled." })
        }
        return yield* reloadedRequest(requestId)
      }).pipe(Effect.withSpan("Custody.decide"))

    /** The custodian asks another Carbon to take the Silicon over (one pending transfer at a time). */
    const transfer = (custodianUuid: string, siliconUuid: string, to: CustodianAddress) =>
      Effect.gen(function*() {
        const at = yield* now
        if (to.toUuid === custodianUuid) {
          return yield* new TransferToSelf({ message: "You are this Silicon's custodian already; name another Carbon." })
        }
        const requestId = randomUUID()
        yield* sql.withTransaction(Effect.gen(function*() {
          const silicon = yield* silicons.findInCustody(custodianUuid, siliconUuid)
          if (Option.isNone(silicon) || silicon.value.status !== "active") {
            return yield* new SiliconNotFound({ message: "No active Silicon with this uuid is in your custody." })
          }
          yield* requests.insert({
            id: requestId,
            kind: "transfer",
            siliconUuid,
            fromUuid: custodianUuid,
            toUuid: to.toUuid,
            toEmail: to.toEmail,
            requestTokenHash: null,
            at,
            expiresAt: new Date(at.getTime() + Duration.toMillis(REQUEST_LIFETIME))
          })
          yield* notifyTo(to, {
            subject: `${silicon.value.display_name} is being handed over to you`,
            text: `You are asked to become the custodian of the Silicon ${silicon.value.display_name} ` +
              `(${formatAccountId({ kind: "silicon", handle: silicon.value.handle ?? "" })}). Accept or decline at ` +
              `${config.publicUrl}${CUSTODY_PAGE_PATH} within ${CUSTODIAN_REQUEST_DAYS} days.`
          })
        })).pipe(
          Effect.catchTags({
            RequestAlreadyPending: () =>
              Effect.flatMap(requests.pendingFor(siliconUuid), (pending) =>
                Effect.fail(
                  new TransferPending({
                    message: "A transfer of this Silicon is pending already; cancel it first.",
                    details: { request_id: Option.match(pending, { onNone: () => "", onSome: (row) => row.id }) }
                  })
                )),
            SqlError: Effect.die
          })
        )
        return yield* reloadedRequest(requestId)
      }).pipe(Effect.withSpan("Custody.transfer"))

    /** The custodian withdraws the pending transfer. */
    const cancelTransfer = (custodianUuid: string, siliconUuid: string) =>
      Effect.gen(function*() {
        const at = yield* now
        const silicon = yield* silicons.findInCustody(custodianUuid, siliconUuid)
        if (Option.isNone(silicon)) {
          return yield* new SiliconNotFound({ message: "No Silicon with this uuid is in your custody." })
        }
        const cancelled = yield* requests.cancelTransfer(siliconUuid, custodianUuid, at)
        if (Option.isNone(cancelled)) return yield* new TransferNotFound({ message: "No transfer of this Silicon is pending." })
        return yield* reloadedRequest(cancelled.value)
      }).pipe(Effect.withSpan("Custody.cancelTransfer"))

    /** Expires pending requests past their 14 days, a batch at a time; returns how many. */
    const expireDue: Effect.Effect<number> = Effect.gen(function*() {
      const at = yield* now
      let total = 0
      while (true) {
        const batch = yield* sql.withTransaction(Effect.gen(function*() {
          const due = yield* requests.lockDue(at, 100)
          yield* Effect.forEach(due, (request) => expireLocked(request, at), { discard: true })
          return due.length
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        total += batch
        if (batch < 100) return total
      }
    }).pipe(Effect.withSpan("Custody.expireDue"))

    /** A request read after its 14 days but before the sweep reached it is expired first. */
    const settled = (request: CustodianRequestRow): Effect.Effect<CustodianRequestRow> =>
      Effect.gen(function*() {
        const at = yield* now
        if (request.status !== "pending" || request.expires_at.getTime() > at.getTime()) return request
        yield* sql.withTransaction(Effect.gen(function*() {
          const due = yield* requests.lockPending(request.id)
          if (Option.isSome(due)) yield* expireLocked(due.value, at)
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        return yield* reloadedRequest(request.id)
      })

    return {
      selfCreate,
      createInCustody,
      accept: (carbonUuid: string, requestId: string) => decide(carbonUuid, requestId, "accept"),
      // Declining touches no custody: a stale transfer or an existing custodian cannot come of it.
      decline: (carbonUuid: string, requestId: string) =>
        decide(carbonUuid, requestId, "decline").pipe(Effect.catchTags({ TransferStale: Effect.die, AlreadyCustodian: Effect.die, SiliconNotPending: Effect.die })),
      transfer,
      cancelTransfer,
      expireDue,
      settled
    } as const
  }),
  dependencies: [SiliconsRepo.Default, CustodianRequestsRepo.Default, IdsRepo.Default, ContactsRepo.Default, SecretsAtRest.Default]
}) {}
