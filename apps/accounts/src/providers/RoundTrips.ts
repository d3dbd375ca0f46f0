import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { ProviderAnswer, ProviderName } from "./ProviderAnswer.ts"
import { holdFormPost, takeForAnswer } from "./roundTripAnswers.ts"

export interface NewRoundTrip {
  readonly state: string
  readonly flowId: string
  readonly provider: ProviderName
  readonly clientId: string
  readonly nonce: string
  readonly codeVerifier: string
  readonly at: Date
  readonly expiresAt: Date
}

/** A form_post answer as the provider sent it: its fields, none repeated. */
const FormPost = Schema.Record({ key: Schema.String, value: Schema.String })

const TakenRow = Schema.Struct({
  flow_id: Schema.String,
  client_id: Schema.String,
  nonce: Schema.String,
  code_verifier: Schema.String,
  form_post: Schema.NullOr(FormPost)
})
export type TakenRoundTrip = typeof TakenRow.Type

const ClaimedRow = Schema.Struct({
  provider: ProviderName,
  answer: ProviderAnswer,
  answered_at: Schema.DateFromSelf
})
export type ClaimedRoundTrip = typeof ClaimedRow.Type

const decodeTaken = rowsDecoder(TakenRow)
const decodeClaimed = rowsDecoder(ClaimedRow)
const encodeAnswer = (answer: ProviderAnswer) => JSON.stringify(Schema.encodeSync(ProviderAnswer)(answer))

/**
 * Round trips from a flow to an identity provider: started, answered once at the callback, claimed once by the flow.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class RoundTrips extends Effect.Service<RoundTrips>()("accounts/RoundTrips", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const start = (trip: NewRoundTrip): Effect.Effect<void> =>
      sql`
        INSERT INTO provider_round_trips (state_hash, flow_id, provider, client_id, nonce, code_verifier, created_at, expires_at)
        VALUES (${sha256Hex(trip.state)}, ${trip.flowId}, ${trip.provider}, ${trip.clientId}, ${trip.nonce},
                ${trip.codeVerifier}, ${trip.at}, ${trip.expiresAt})
      `.pipe(Effect.orDie, Effect.asVoid)

    const hold = (provider: ProviderName, state: string, form: Readonly<Record<string, string>>, at: Date) =>
      holdFormPost(sql, "provider_round_trips", provider, state, form, at)

    /** The live, unanswered round trip this state names, taken for its one answer (`takeForAnswer`). */
    const take = (
      provider: ProviderName,
      state: string,
      at: Date,
      held: boolean
    ): Effect.Effect<Option.Option<TakenRoundTrip>> =>
      takeForAnswer(sql, "provider_round_trips", "flow_id, client_id, nonce, code_verifier, form_post", provider, state, at, held)
        .pipe(Effect.flatMap(decodeTaken), Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Records the answer of a taken round trip; the secrets it no longer needs are blanked. */
    const answer = (state: string, answer: ProviderAnswer): Effect.Effect<void> =>
      sql`
        UPDATE provider_round_trips SET answer = ${encodeAnswer(answer)}::jsonb, nonce = '', code_verifier = '', form_post = NULL
        WHERE state_hash = ${sha256Hex(state)}
      `.pipe(Effect.orDie, Effect.asVoid)

    /** Claims the flow's answered round trips; the newest answer is the one that counts. */
    const claim = (flowId: string, at: Date): Effect.Effect<Option.Option<ClaimedRoundTrip>> =>
      sql`
        UPDATE provider_round_trips SET claimed_at = ${at}
        WHERE flow_id = ${flowId} AND answer IS NOT NULL AND claimed_at IS NULL
        RETURNING provider, answer, answered_at
      `.pipe(
        Effect.orDie,
        Effect.flatMap(decodeClaimed),
        Effect.map((rows) =>
          Option.fromNullable([...rows].sort((a, b) => b.answered_at.getTime() - a.answered_at.getTime())[0])
        )
      )

    /** Whether the flow has an answer waiting, without claiming it (a read before the claim's transaction). */
    const waiting = (flowId: string): Effect.Effect<boolean> =>
      sql`
        SELECT 1 FROM provider_round_trips WHERE flow_id = ${flowId} AND answer IS NOT NULL AND claimed_at IS NULL LIMIT 1
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0))

    return { start, hold, take, answer, claim, waiting } as const
  })
}) {}
