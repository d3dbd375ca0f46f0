import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { columnsOf, rowsDecoder } from "@platform/database"
import { Effect, Option } from "effect"
import type { ProviderName } from "../providers/ProviderAnswer.ts"
import { holdFormPost, takeForAnswer } from "../providers/roundTripAnswers.ts"
import type { NewRoundTrip } from "../providers/RoundTrips.ts"
import { IdentityLinkRow, type LinkOutcome } from "./IdentityLink.ts"

/** A link's round trip: a flow's round trip, bound to a signed-in browser session instead of a flow. */
export interface NewIdentityLink extends Omit<NewRoundTrip, "flowId"> {
  readonly accountUuid: string
  readonly signinId: string
}

const COLUMNS = columnsOf(IdentityLinkRow.fields)
const decodeRows = rowsDecoder(IdentityLinkRow)
const first = (rows: ReadonlyArray<IdentityLinkRow>) => Option.fromNullable(rows[0])

/**
 * Round trips to a provider that link an identity to a signed-in account: started, answered once at
 * the provider's callback (the same callback as a flow's round trips, told apart by their state).
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class IdentityLinksRepo extends Effect.Service<IdentityLinksRepo>()("accounts/IdentityLinksRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const start = (link: NewIdentityLink): Effect.Effect<IdentityLinkRow> =>
      sql`
        INSERT INTO identity_links (id, state_hash, account_uuid, signin_id, provider, client_id, nonce, code_verifier,
                                    created_at, expires_at, status)
        VALUES (${randomToken("lnk_", 16)}, ${sha256Hex(link.state)}, ${link.accountUuid}, ${link.signinId}, ${link.provider},
                ${link.clientId}, ${link.nonce}, ${link.codeVerifier}, ${link.at}, ${link.expiresAt}, 'pending')
        RETURNING ${sql.literal(COLUMNS)}
      `.pipe(Effect.orDie, Effect.flatMap(decodeRows), Effect.map((rows) => rows[0]!))

    const hold = (provider: ProviderName, state: string, form: Readonly<Record<string, string>>, at: Date) =>
      holdFormPost(sql, "identity_links", provider, state, form, at)

    /** The live, unanswered link this state names, taken for its one answer (`takeForAnswer`). */
    const take = (provider: ProviderName, state: string, at: Date, held: boolean) =>
      takeForAnswer(sql, "identity_links", COLUMNS, provider, state, at, held).pipe(Effect.flatMap(decodeRows), Effect.map(first))

    /** Records how a taken link ended; the one-time checks are blanked. */
    const finish = (id: string, outcome: LinkOutcome): Effect.Effect<void> =>
      sql`
        UPDATE identity_links
        SET status = ${outcome.kind}, nonce = '', code_verifier = '', form_post = NULL,
            error_code = ${outcome.kind === "failed" ? outcome.code : null},
            error_message = ${outcome.kind === "failed" ? outcome.message : null},
            identity_id = ${outcome.kind === "linked" ? outcome.identityId : null}
        WHERE id = ${id}
      `.pipe(Effect.orDie, Effect.asVoid)

    /** One of the account's links, by id. */
    const findOwn = (accountUuid: string, id: string) =>
      sql`SELECT ${sql.literal(COLUMNS)} FROM identity_links WHERE id = ${id} AND account_uuid = ${accountUuid}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeRows),
        Effect.map(first)
      )

    /** Deletes links that expired before `before`; returns how many went. */
    const sweep = (before: Date): Effect.Effect<number> =>
      sql`DELETE FROM identity_links WHERE expires_at < ${before} RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length)
      )

    return { start, hold, take, finish, findOwn, sweep } as const
  })
}) {}
