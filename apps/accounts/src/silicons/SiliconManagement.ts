import { SqlClient } from "@effect/sql"
import { hashSecret } from "@platform/crypto"
import { Effect, Either, Option } from "effect"
import { IdChanges } from "../profile/IdChanges.ts"
import { Photos } from "../profile/Photos.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { now } from "@platform/service"
import { custodianRequest, type CustodianRequest } from "./CustodianRequest.ts"
import { CustodianRequestsRepo } from "./CustodianRequestsRepo.ts"
import { InvalidStk, SiliconNotFound } from "./errors.ts"
import { siliconMe } from "./SiliconMe.ts"
import type { SiliconRow } from "./SiliconRow.ts"
import { type SiliconDetails, SiliconsRepo } from "./SiliconsRepo.ts"
import { generateStk, normalizeStk } from "./stk.ts"
import { publishSignedOut } from "../events/membershipChanges.ts"
import { reportingProfileChanges } from "../events/profileChanges.ts"
import { AccountsConfig } from "../config.ts"
import { eventWriter } from "../events/EventWriter.ts"

const notInCustody = () => new SiliconNotFound({ message: "No Silicon with this uuid is in your custody." })

/** What a custodian does to a Silicon in its custody (`/v1/me/silicons/{uuid}…`). */
export class SiliconManagement extends Effect.Service<SiliconManagement>()("accounts/SiliconManagement", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* eventWriter
    const idChanges = yield* IdChanges
    const photos = yield* Photos
    const silicons = yield* SiliconsRepo
    const requests = yield* CustodianRequestsRepo
    const signins = yield* SigninsRepo
    const { publicUrl } = yield* AccountsConfig

    /** The Silicon, live and in this Carbon's custody, else 404 silicon_not_found. */
    const inCustody = (custodianUuid: string, uuid: string): Effect.Effect<SiliconRow, SiliconNotFound> =>
      Effect.flatMap(silicons.findInCustody(custodianUuid, uuid), Option.match({
        onNone: () => Effect.fail(notInCustody()),
        onSome: Effect.succeed
      }))

    /** The custodian's view: the Account plus the pending transfer. */
    const view = (silicon: SiliconRow) =>
      Effect.map(requests.pendingFor(silicon.uuid), (pending) => ({
        ...siliconMe(silicon, publicUrl),
        pending_transfer: Option.match(pending, {
          onNone: () => null,
          onSome: (row): CustodianRequest | null => (row.kind === "transfer" ? custodianRequest(row, publicUrl) : null)
        })
      }))

    const reread = (custodianUuid: string, uuid: string) => Effect.flatMap(inCustody(custodianUuid, uuid), view)

    const updateDetails = (custodianUuid: string, uuid: string, details: SiliconDetails) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        const at = yield* now
        yield* reportingProfileChanges(events, uuid, silicons.updateDetails(uuid, details, at)).pipe(
          Effect.catchTag("SqlError", Effect.die)
        )
        return yield* reread(custodianUuid, uuid)
      })

    /** A new id, the one way every account changes it (profile/IdChanges.ts). */
    const changeId = (custodianUuid: string, uuid: string, input: string) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        yield* idChanges.changeId({ uuid, kind: "silicon" }, input)
        return yield* reread(custodianUuid, uuid)
      })

    /** The Silicon's photo from raw image bytes, as a Carbon's own (profile/Photos.ts). */
    const uploadPhoto = (custodianUuid: string, uuid: string, contentType: string, body: Uint8Array) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        yield* photos.upload(uuid, contentType, body)
        return yield* reread(custodianUuid, uuid)
      })

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
          const signinIds = yield* signins.revokeAll(uuid, at, "stk_rotated")
          yield* publishSignedOut(events, { accountUuid: uuid, signinIds, reason: "stk_rotated", at })
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        return { stk: chosen === undefined ? stk : null, rotated_at: at.toISOString() }
      })

    const remove = (custodianUuid: string, uuid: string) =>
      Effect.gen(function*() {
        yield* inCustody(custodianUuid, uuid)
        const at = yield* now
        yield* sql.withTransaction(silicons.end(uuid, "deleted", at)).pipe(Effect.catchTag("SqlError", Effect.die))
      })

    return { inCustody, view, updateDetails, changeId, uploadPhoto, rotateStk, remove } as const
  }),
  dependencies: [IdChanges.Default, Photos.Default, SiliconsRepo.Default, CustodianRequestsRepo.Default, SigninsRepo.Default]
}) {}
