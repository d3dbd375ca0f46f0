import { SqlClient } from "@effect/sql"
import { hashSecret, randomToken } from "@platform/crypto"
import { RateLimited } from "@platform/http"
import { Duration, Effect, Either, Option } from "effect"
import { formatAccountId, parseAccountId } from "../accounts/AccountId.ts"
import { IdsRepo } from "../accounts/IdsRepo.ts"
import { IdReserved, InvalidId } from "../accounts/errors.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { now } from "@platform/service"
import { custodianRequest, type CustodianRequest } from "./CustodianRequest.ts"
import { CustodianRequestsRepo } from "./CustodianRequestsRepo.ts"
import { InvalidStk, SiliconNotFound, WebhookNotSet } from "./errors.ts"
import { siliconMe } from "./SiliconMe.ts"
import type { SiliconRow } from "./SiliconRow.ts"
import { type SiliconDetails, SiliconsRepo } from "./SiliconsRepo.ts"
import { generateStk, normalizeStk } from "./stk.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"

/** Id changes per rolling 24 hours per account (spec 1, Rate limits). */
export const ID_CHANGES_PER_DAY = 5
const DAY = Duration.hours(24)

const notInCustody = () => new SiliconNotFound({ message: "No Silicon with this uuid is in your custody." })

/** What a custodian does to a Silicon in its custody (`/v1/me/silicons/{uuid}…`). */
export class SiliconManagement extends Effect.Service<SiliconManagement>()("accounts/SiliconManagement", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdsRepo
    const silicons = yield* SiliconsRepo
    const requests = yield* CustodianRequestsRepo
    const signins = yield* SigninsRepo
    const secretsAtRest = yield* SecretsAtRest

    /** The Silicon, live and in this Carbon's custody, else 404 silicon_not_found. */
    const inCustody = (custodianUuid: string, uuid: string): Effect.Effect<SiliconRow, SiliconNotFound> =>
      Effect.flatMap(silicons.findInCustody(custodianUuid, uuid), Option.match({
        onNone: () => Effect.fail(notInCustody()),
        onSome: Effect.succeed
      }))

    /** The custodian's view: the Account plus the pending transfer. */
    const view = (silicon: SiliconRow) =>
      Effect.map(requests.pendingFor(silicon.uuid), (pending) => ({
        ...siliconMe(silicon),
        pending_transfer: Option.match(pending, {
          onNone: () => null,
          onSome: (row): CustodianRequest | null => (row.kind === "transfer" ? custodianRequest(row) : null)
        })
      }))

    const reread = (custodianUuid: string, uuid: string) => Effect.flatMap(inCustody(custodianUuid, uuid), view)

    const updateDetails = (custodianUuid: string, uuid: string, details: SiliconDetails) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        yield* silicons.updateDetails(uuid, details, yield* now)
        return yield* reread(custodianUuid, uuid)
      })

    /** A new id; the old one is reserved for the Silicon for 10 days. 5 changes per rolling 24 hours. */
    const changeId = (custodianUuid: string, uuid: string, input: string) =>
      Effect.gen(function*() {
        const silicon = yield* inCustody(custodianUuid, uuid)
        const id = yield* parseAccountId(input, "silicon")
        if (id.kind !== "silicon") {
          return yield* new InvalidId({ message: `A Silicon's id starts with si:, not ${JSON.stringify(input)}.`, details: { reason: "invalid" } })
        }
        if (silicon.handle === id.handle) return yield* view(silicon)
        const at = yield* now
        const reserved = yield* sql.withTransaction(Effect.gen(function*() {
          yield* silicons.lock(uuid)
          const since = new Date(at.getTime() - Duration.toMillis(DAY))
          const changes = yield* silicons.idChangesSince(uuid, since)
          if (changes.length >= ID_CHANGES_PER_DAY) {
            // A slot frees when the oldest change of the window turns 24 hours old.
            const freesAt = changes[changes.length - ID_CHANGES_PER_DAY]!.getTime() + Duration.toMillis(DAY)
            return yield* new RateLimited({
              message: `Rate limit reached: an account changes its id at most ${ID_CHANGES_PER_DAY} times per rolling 24 hours.`,
              details: { retry_after_seconds: Math.max(1, Math.ceil((freesAt - at.getTime()) / 1000)) }
            })
          }
          return yield* silicons.changeHandle(uuid, silicon.handle!, id.handle, at)
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        if (Option.isSome(reserved)) {
          return yield* new IdReserved({
            message: `The id ${formatAccountId(id)} is reserved for its previous owner.`,
            details: { reserved_until: reserved.value.toISOString() }
          })
        }
        return yield* reread(custodianUuid, uuid)
      }).pipe(Effect.catchTag("HandleTaken", () =>
        Effect.flatMap(now, (at) => ids.refuseTakenId({ kind: "silicon", handle: input.replace(/^si:/i, "").toLowerCase() }, at))))

    /** A new STK (chosen, or generated and returned once); the Silicon's sign-ins end. */
    const rotateStk = (custodianUuid: string, uuid: string, chosen: string | undefined) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        const stk = chosen === undefined
          ? generateStk()
          : yield* Either.mapLeft(normalizeStk(chosen), (problem) => new InvalidStk({ message: `The STK ${problem}.` }))
        const hash = yield* hashSecret(stk)
        const at = yield* now
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* silicons.replaceStk(uuid, hash, at)
          yield* signins.revokeAll(uuid, at, "stk_rotated")
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        return { stk: chosen === undefined ? stk : null, rotated_at: at.toISOString() }
      })

    /** A new webhook URL (already checked) with a new secret, shown once; the old secret stops at once. */
    const setWebhook = (custodianUuid: string, uuid: string, url: string) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        const secret = randomToken("whsec_")
        yield* silicons.setWebhook(uuid, url, secretsAtRest.seal("webhook_secret", secret), yield* now)
        return { webhook_url: url, webhook_secret: secret }
      })

    const removeWebhook = (custodianUuid: string, uuid: string) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        if (!(yield* silicons.clearWebhook(uuid, yield* now))) {
          return yield* new WebhookNotSet({ message: "This Silicon has no webhook." })
        }
      })

    const remove = (custodianUuid: string, uuid: string) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        const at = yield* now
        yield* sql.withTransaction(silicons.end(uuid, "deleted", at)).pipe(Effect.catchTag("SqlError", Effect.die))
      })

    return { inCustody, view, updateDetails, changeId, rotateStk, setWebhook, removeWebhook, remove } as const
  }),
  dependencies: [IdsRepo.Default, SiliconsRepo.Default, CustodianRequestsRepo.Default, SecretsAtRest.Default, SigninsRepo.Default]
}) {}
