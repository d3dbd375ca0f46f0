import { sha256Hex } from "@platform/crypto"
import { now } from "@platform/service"
import { Duration, Effect, type Option } from "effect"
import { LIFETIMES } from "../lifetimes.ts"
import { type SpentShortLivedToken, ShortLivedTokensRepo } from "./ShortLivedTokensRepo.ts"
import { newShortLivedToken } from "./tokenFormats.ts"

/** What the login handoff asks for one application (spec 2: the application receives only what was approved and consented). */
export interface ShortLivedTokenRequest {
  readonly identityUuid: string
  /** The IAM session the person approved from: the application session ends with it. */
  readonly parentSessionId: string
  readonly appId: string
  readonly orgIds: ReadonlyArray<string>
  readonly scopes: ReadonlyArray<string>
  readonly requestId: string
}

/** Spec 2's SLT fields, as the callback fragment `slts=` carries them. */
export interface MintedShortLivedToken {
  readonly app_id: string
  readonly slt: string
  readonly expires_in: number
  readonly expires_at: string
  readonly request_id: string
}

/**
 * Short-lived login tokens (SLT): 2 minutes, single use, bound to one application. `mint` joins the caller's
 * transaction, so a batch login mints all its tokens or none.
 */
export class ShortLivedTokens extends Effect.Service<ShortLivedTokens>()("iam/ShortLivedTokens", {
  effect: Effect.gen(function*() {
    const repo = yield* ShortLivedTokensRepo

    const mint = (request: ShortLivedTokenRequest): Effect.Effect<MintedShortLivedToken> =>
      Effect.gen(function*() {
        const at = yield* now
        const slt = newShortLivedToken()
        const expiresAt = new Date(at.getTime() + Duration.toMillis(LIFETIMES.shortLivedToken))
        yield* repo.insert({ ...request, digest: sha256Hex(slt), at, expiresAt })
        return {
          app_id: request.appId,
          slt,
          expires_in: Duration.toSeconds(LIFETIMES.shortLivedToken),
          expires_at: expiresAt.toISOString(),
          request_id: request.requestId
        }
      })

    /**
     * Spends the token at its first presentation. The caller checks application and expiry: a token presented by
     * another application or too late is spent all the same.
     */
    const spend = (slt: string, at: Date): Effect.Effect<Option.Option<SpentShortLivedToken>> => repo.spend(sha256Hex(slt), at)

    return { mint, spend } as const
  }),
  dependencies: [ShortLivedTokensRepo.Default]
}) {}
