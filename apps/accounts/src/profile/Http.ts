import { IMMUTABLE } from "@platform/http"
import { Effect, Layer, Option } from "effect"
import { isUuidShaped } from "../accounts/uuidPermutation.ts"
import { AccountsApi } from "../api.ts"
import { defaultPhoto } from "./defaultPhoto.ts"
import { PhotoNotFound } from "./errors.ts"
import { imageResponse } from "./imageResponse.ts"
import { Photos } from "./Photos.ts"
import { compiledGroup } from "@platform/service"

/** A default picture's URL never changes, but its drawing may with a release: a day, then revalidation by ETag. */
const DEFAULT_PHOTO_CACHE = "public, max-age=86400"

const notFound = () => new PhotoNotFound({ message: "No photo has this id (it may have been replaced)." })

/** A photo URL names one image forever: a year of caching, and revalidation by ETag answers 304. */
export const PhotosLive = compiledGroup(AccountsApi, "photos", (handlers) =>
  Effect.gen(function*() {
    const photos = yield* Photos
    return handlers
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const found = yield* photos.find(path.photo_id)
          if (Option.isNone(found)) return yield* notFound()
          return yield* imageResponse({ ...found.value, etag: path.photo_id, cacheControl: IMMUTABLE })
        }))
      .handle("default", ({ path }) =>
        Effect.gen(function*() {
          if (!isUuidShaped(path.uuid)) return yield* notFound()
          const photo = defaultPhoto(path.uuid)
          return yield* imageResponse({
            bytes: new TextEncoder().encode(photo.svg),
            contentType: "image/svg+xml",
            etag: photo.digest,
            cacheControl: DEFAULT_PHOTO_CACHE
          })
        }))
  })).pipe(Layer.provide(Photos.Default))
