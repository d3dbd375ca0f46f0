import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { Photo, PhotoType } from "./photoImage.ts"

export interface StoredPhoto {
  readonly contentType: PhotoType
  readonly bytes: Uint8Array
}

/**
 * Uploaded photos in the database, so that every process serves them, and the `pfp_url` that names them;
 * a photo uploaded during sign-up is held by its sign-up session until the account adopts it.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class PhotosRepo extends Effect.Service<PhotosRepo>()("accounts/PhotosRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The account's photo becomes `photo` under `id`, named by `url`; the one before it is gone. */
    const replace = (accountUuid: string, id: string, url: string, photo: Photo, at: Date): Effect.Effect<void> =>
      Effect.gen(function*() {
        yield* sql`DELETE FROM account_photos WHERE account_uuid = ${accountUuid}`
        yield* sql`
          INSERT INTO account_photos (id, account_uuid, content_type, bytes, width, height, created_at)
          VALUES (${id}, ${accountUuid}, ${photo.contentType}, ${photo.bytes}, ${photo.width}, ${photo.height}, ${at})
        `
        yield* sql`UPDATE accounts SET pfp_url = ${url}, updated_at = ${at}, version = version + 1 WHERE uuid = ${accountUuid}`
      }).pipe(Effect.orDie)

    /** The account has no photo: an uploaded one is deleted and `pfp_url` (uploaded or a URL given at creation) cleared. */
    const remove = (accountUuid: string, at: Date): Effect.Effect<void> =>
      Effect.gen(function*() {
        yield* sql`DELETE FROM account_photos WHERE account_uuid = ${accountUuid}`
        yield* sql`
          UPDATE accounts SET pfp_url = NULL, updated_at = ${at}, version = version + 1
          WHERE uuid = ${accountUuid} AND pfp_url IS NOT NULL
        `
      }).pipe(Effect.orDie)

    /** The sign-up's photo becomes `photo` under `id` (before its account exists); the one before it is gone. */
    const replaceForSignup = (signupId: string, id: string, photo: Photo, at: Date): Effect.Effect<void> =>
      Effect.gen(function*() {
        yield* sql`DELETE FROM account_photos WHERE signup_id = ${signupId}`
        yield* sql`
          INSERT INTO account_photos (id, signup_id, content_type, bytes, width, height, created_at)
          VALUES (${id}, ${signupId}, ${photo.contentType}, ${photo.bytes}, ${photo.width}, ${photo.height}, ${at})
        `
      }).pipe(Effect.orDie)

    /**
     * The account the sign-up made takes the sign-up's photo, if it uploaded one, as its own photo
     * (replacing any it had), named by `urlOf(photo id)`; none when the sign-up uploaded nothing.
     */
    const adoptSignupPhoto = (signupId: string, accountUuid: string, urlOf: (id: string) => string): Effect.Effect<void> =>
      Effect.gen(function*() {
        const held = yield* sql<{ readonly id: string }>`SELECT id FROM account_photos WHERE signup_id = ${signupId} FOR UPDATE`
        const photo = held[0]
        if (photo === undefined) return
        yield* sql`DELETE FROM account_photos WHERE account_uuid = ${accountUuid}`
        yield* sql`UPDATE account_photos SET account_uuid = ${accountUuid}, signup_id = NULL WHERE id = ${photo.id}`
        yield* sql`UPDATE accounts SET pfp_url = ${urlOf(photo.id)} WHERE uuid = ${accountUuid}`
      }).pipe(Effect.orDie)

    const find = (id: string): Effect.Effect<Option.Option<StoredPhoto>> =>
      sql<{ readonly content_type: PhotoType; readonly bytes: Uint8Array }>`
        SELECT content_type, bytes FROM account_photos WHERE id = ${id}
      `.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => ({ contentType: row.content_type, bytes: row.bytes })))
      )

    return { replace, replaceForSignup, adoptSignupPhoto, remove, find } as const
  })
}) {}
