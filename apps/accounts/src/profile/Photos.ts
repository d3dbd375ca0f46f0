import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { now } from "@platform/service"
import { Effect } from "effect"
import { AccountsConfig } from "../config.ts"
import { reportingProfileChanges } from "../events/profileChanges.ts"
import { normalizePhoto } from "./photoImage.ts"
import { PhotosRepo } from "./PhotosRepo.ts"

/** Spec 1, Rate limits: photo uploads, 20 per hour per account (every upload counts: each one is decoded). */
export const photoUploadsPerAccount: RateLimitRule = {
  id: "photo_uploads",
  operation: "Photo uploads",
  limit: 20,
  window: "1 hour",
  per: "account"
}

export const PHOTOS_PATH = "/v1/photos"

/** An account's uploaded photo, for POST and DELETE /v1/me/photo and a custodian's POST /v1/me/silicons/{uuid}/photo. */
export class Photos extends Effect.Service<Photos>()("accounts/Photos", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const photos = yield* PhotosRepo

    /**
     * Checks, cleans and stores the photo; `pfp_url` names it at a URL of its own (a new upload is a
     * new URL), and `account.updated` reports the change in the same transaction.
     */
    const upload = (accountUuid: string, contentType: string, body: Uint8Array) =>
      Effect.gen(function*() {
        yield* enforceRateLimit(limiter, photoUploadsPerAccount, accountUuid)
        const photo = yield* normalizePhoto(contentType, body)
        const id = randomToken("pho_", 16)
        const at = yield* now
        yield* reportingProfileChanges(
          sql,
          accountUuid,
          photos.replace(accountUuid, id, `${config.publicUrl}${PHOTOS_PATH}/${id}`, photo, at)
        ).pipe(Effect.catchTag("SqlError", Effect.die))
      })

    const remove = (accountUuid: string) =>
      Effect.flatMap(now, (at) =>
        reportingProfileChanges(sql, accountUuid, photos.remove(accountUuid, at)).pipe(Effect.catchTag("SqlError", Effect.die)))

    return { upload, remove, find: photos.find } as const
  }),
  dependencies: [PhotosRepo.Default]
}) {}
