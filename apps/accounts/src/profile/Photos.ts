import { randomToken } from "@platform/crypto"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { now } from "@platform/service"
import { Effect } from "effect"
import { AccountsConfig } from "../config.ts"
import { reportingProfileChanges } from "../events/profileChanges.ts"
import { normalizePhoto, type Photo } from "./photoImage.ts"
import { PhotosRepo } from "./PhotosRepo.ts"
import { eventWriter } from "../events/EventWriter.ts"

/** Spec 1, Rate limits: photo uploads, 20 per hour per account (every upload counts: each one is decoded). */
export const photoUploadsPerAccount: RateLimitRule = {
  id: "photo_uploads",
  operation: "Photo uploads",
  limit: 20,
  window: "1 hour",
  per: "account"
}

/**
 * Spec 1, Rate limits: photo uploads, 20 per hour per sign-up: a photo uploaded during hosted
 * sign-up, before any account exists, counts against its sign-up session.
 */
export const photoUploadsPerSignup: RateLimitRule = {
  id: "signup_photo_uploads",
  operation: "Photo uploads",
  limit: 20,
  window: "1 hour",
  per: "sign-up"
}

export const PHOTOS_PATH = "/v1/photos"

/**
 * An account's uploaded photo, for POST and DELETE /v1/me/photo and a custodian's POST /v1/me/silicons/{uuid}/photo,
 * and the photo a hosted sign-up uploads before its account exists (POST /v1/flows/{id}/signup/photo).
 */
export class Photos extends Effect.Service<Photos>()("accounts/Photos", {
  effect: Effect.gen(function*() {
    const events = yield* eventWriter
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const photos = yield* PhotosRepo

    const urlOf = (id: string) => `${config.publicUrl}${PHOTOS_PATH}/${id}`

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
          events,
          accountUuid,
          photos.replace(accountUuid, id, urlOf(id), photo, at)
        ).pipe(Effect.catchTag("SqlError", Effect.die))
      })

    /** A photo for a sign-up: counted against the sign-up's limit, then checked and cleaned (not stored yet). */
    const checkForSignup = (signupId: string, contentType: string, body: Uint8Array) =>
      Effect.zipRight(enforceRateLimit(limiter, photoUploadsPerSignup, signupId), normalizePhoto(contentType, body))

    /** Inside the caller's transaction: the sign-up holds `photo` at a URL of its own, which is answered. */
    const holdForSignup = (signupId: string, photo: Photo, at: Date) =>
      Effect.gen(function*() {
        const id = randomToken("pho_", 16)
        yield* photos.replaceForSignup(signupId, id, photo, at)
        return urlOf(id)
      })

    /** Inside the sign-up's transaction: the new account takes the photo its sign-up uploaded, if any. */
    const adoptSignupPhoto = (signupId: string, accountUuid: string) => photos.adoptSignupPhoto(signupId, accountUuid, urlOf)

    const remove = (accountUuid: string) =>
      Effect.flatMap(now, (at) =>
        reportingProfileChanges(events, accountUuid, photos.remove(accountUuid, at)).pipe(Effect.catchTag("SqlError", Effect.die)))

    return { upload, remove, find: photos.find, checkForSignup, holdForSignup, adoptSignupPhoto } as const
  }),
  dependencies: [PhotosRepo.Default]
}) {}
