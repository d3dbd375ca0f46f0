import { SqlClient } from "@effect/sql"
import { RateLimited } from "@platform/http"
import { now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import { type AccountKind, formatAccountId, ID_PREFIX, parseAccountId } from "../accounts/AccountId.ts"
import { IdReserved, InvalidId } from "../accounts/errors.ts"
import { IdsRepo } from "../accounts/IdsRepo.ts"
import { publishEvent } from "../events/publishEvent.ts"
import { IdChangesRepo } from "./IdChangesRepo.ts"
import { eventWriter } from "../events/EventWriter.ts"

/** Id changes per rolling 24 hours per account (spec 1, Rate limits). */
export const ID_CHANGES_PER_DAY = 5
export const ID_CHANGE_WINDOW = Duration.hours(24)
/** A changed-away id stays reserved for its previous owner this long (spec 1, Lifetimes). */
export const ID_RESERVATION = Duration.days(10)

export const reservationEndingFrom = (at: Date) => new Date(at.getTime() + Duration.toMillis(ID_RESERVATION))

/**
 * Changing an account's id, the one way for a Carbon or Silicon itself (POST /v1/me/id) and for a
 * custodian (POST /v1/me/silicons/{uuid}/id): in one transaction the handle moves, the old one is
 * reserved for the account for 10 days (its own reservation of the new one is taken back), the
 * change is recorded in `account_id_changes` and `account.id_changed` is published.
 */
export class IdChanges extends Effect.Service<IdChanges>()("accounts/IdChanges", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* eventWriter
    const ids = yield* IdsRepo
    const changes = yield* IdChangesRepo

    /** Refuses the change when 5 were made in the 24 hours before `at`; Retry-After is when the oldest of them ages out. */
    const withinLimit = (uuid: string, at: Date) =>
      Effect.gen(function*() {
        const window = Duration.toMillis(ID_CHANGE_WINDOW)
        const recent = yield* changes.changedSince(uuid, new Date(at.getTime() - window))
        if (recent.length < ID_CHANGES_PER_DAY) return
        const freesAt = recent[recent.length - ID_CHANGES_PER_DAY]!.getTime() + window
        const retryAfter = Math.max(1, Math.ceil((freesAt - at.getTime()) / 1000))
        return yield* new RateLimited({
          message: `Rate limit reached: an account changes its id at most ${ID_CHANGES_PER_DAY} times per rolling 24 hours.`,
          hint: `Retry after ${retryAfter} seconds.`,
          details: { retry_after_seconds: retryAfter }
        })
      })

    /** The account (of `kind`) takes the id `input` (a bare handle takes the account's prefix). Asking for its current id changes nothing. */
    const changeId = (account: { readonly uuid: string; readonly kind: AccountKind }, input: string) =>
      Effect.gen(function*() {
        const id = yield* parseAccountId(input, account.kind)
        if (id.kind !== account.kind) {
          return yield* new InvalidId({
            message: `This account's id starts with ${ID_PREFIX[account.kind]}, not ${JSON.stringify(input)}.`,
            details: { reason: "invalid" }
          })
        }
        const at = yield* now
        return yield* sql.withTransaction(Effect.gen(function*() {
          const current = yield* changes.lockHandle(account.uuid)
          if (current?.handle == null) return yield* Effect.dieMessage(`account ${account.uuid} has no id to change`)
          if (current.handle === id.handle) return
          yield* withinLimit(account.uuid, at)
          yield* ids.releaseReservation(id.handle, account.uuid)
          yield* changes.moveHandle(account.uuid, id.handle, at)
          // After the move, which waited for any transaction moving this handle away: its reservation is visible now.
          const reserved = yield* ids.reservedUntil(id.handle, at)
          if (Option.isSome(reserved)) {
            return yield* new IdReserved({
              message: `The id ${formatAccountId(id)} is reserved for its previous owner until ${reserved.value.toISOString()}.`,
              details: { reserved_until: reserved.value.toISOString() }
            })
          }
          yield* ids.reserve(current.handle, account.uuid, reservationEndingFrom(at), at)
          const oldId = formatAccountId({ kind: account.kind, handle: current.handle })
          const newId = formatAccountId(id)
          yield* changes.record(account.uuid, oldId, newId, at)
          yield* publishEvent(events, { type: "account.id_changed", accountUuid: account.uuid, occurredAt: at, oldId, newId })
        })).pipe(
          Effect.catchTags({
            SqlError: Effect.die,
            HandleTaken: () => ids.refuseTakenId(id, at)
          })
        )
      }).pipe(Effect.withSpan("IdChanges.changeId"))

    return { changeId } as const
  }),
  dependencies: [IdsRepo.Default, IdChangesRepo.Default]
}) {}
