import { publicDocument } from "@platform/http"
import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { ReleaseSigningKeys } from "./ReleaseSigningKeys.ts"
import { compiledGroup } from "@platform/service"

// Short enough that a client sees a rotation or revocation within minutes.
const KEYS_MAX_AGE_SECONDS = 300

export const SigningLive = compiledGroup(RegistryApi, "signing", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* ReleaseSigningKeys
    // The first key is made at start when there is none.
    yield* keys.ensureActive
    const listing = Effect.zipRight(publicDocument(KEYS_MAX_AGE_SECONDS), Effect.map(keys.list, (items) => ({ items })))
    return handlers.handle("keys", () => listing).handle("wellKnownKeys", () => listing)
  })).pipe(Layer.provide(ReleaseSigningKeys.Default))
