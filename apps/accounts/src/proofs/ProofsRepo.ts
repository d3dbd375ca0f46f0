import { SqlClient, type Statement } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { exactCache, rowsDecoder } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Option, Schema } from "effect"
import {
  PROOF_COLUMNS,
  PROOF_REFRESH_TOKEN_PREFIX,
  PROOF_TOKEN_PREFIX,
  ProofRow,
  type ProofStatus,
  type RevokeReason
} from "./Proof.ts"
import { PROOF_VIEW_CACHE_CAPACITY, PROOF_VIEW_CHANNEL } from "./proofViewChannel.ts"

/**
 * Why a live User verification proof has ended by cascade, from its account, its membership with the
 * issuing app and its sign-in (aliases p, a, m, s), or NULL; and since when.
 */
const ENDED_REASON = `CASE WHEN p.kind <> 'user_verification' THEN NULL
  WHEN a.status = 'deleted' THEN 'account_deleted'
  WHEN a.status <> 'active' THEN 'account_inactive'
  WHEN m.status = 'access_removed' THEN 'access_removed'
  WHEN m.status IS DISTINCT FROM 'active' THEN 'membership_inactive'
  WHEN s.revoked_at IS NOT NULL THEN 'sign_in_revoked' END`
const CASCADE_JOINS = `LEFT JOIN accounts a ON a.uuid = p.account_uuid
  LEFT JOIN memberships m ON m.app_id = p.issuing_app AND m.account_uuid = p.account_uuid
  LEFT JOIN signins s ON s.id = p.signin_id`

const decodeProofs = rowsDecoder(ProofRow)

const VerifiedRow = Schema.Struct({
  ...ProofRow.fields,
  token_expires: Schema.DateFromSelf,
  ended_reason: Schema.NullOr(Schema.String),
  issuing_status: Schema.String,
  issuing_name: Schema.String,
  receiving_name: Schema.String
})
export type VerifiedRow = typeof VerifiedRow.Type
const decodeVerified = rowsDecoder(VerifiedRow)

const RefreshState = Schema.Struct({ ...ProofRow.fields, used_at: Schema.NullOr(Schema.DateFromSelf) })
const decodeRefreshStates = rowsDecoder(RefreshState)

/** Which proofs a list shows. */
export type ProofOwner =
  | { readonly kind: "issuing_app"; readonly appId: string }
  | { readonly kind: "account"; readonly uuid: string }
  | { readonly kind: "manager"; readonly uuid: string }

export interface ProofListQuery {
  readonly owner: ProofOwner
  readonly kind: "user_verification" | "app_verification" | undefined
  readonly status: ProofStatus | undefined
  readonly after: { readonly createdAt: string; readonly id: string } | undefined
  readonly limit: number
  readonly now: Date
}

export interface NewProof {
  readonly kind: "user_verification" | "app_verification"
  readonly issuingApp: string
  readonly receivingApp: string
  readonly accountUuid: string | null
  readonly signinId: string | null
  readonly scopes: ReadonlyArray<string>
  readonly accessTtlSeconds: number
  readonly tokenExpiresAt: Date
  readonly refreshExpiresAt: Date
  readonly now: Date
}

// `now` is a parameter, not text: the statements stay the same text, so their plans are kept.
const endedAtOf = (sql: SqlClient.SqlClient, now: Date) =>
  sql`GREATEST(p.created_at, CASE
    WHEN a.status <> 'active' THEN a.updated_at
    WHEN m.status IS DISTINCT FROM 'active' THEN ${now}::timestamptz
    ELSE COALESCE(s.revoked_at, ${now}::timestamptz) END)`

/**
 * The proof of a token (by its hash) with its apps and cascade, settling its end (ended by cascade
 * and not yet revoked) in the same statement. Reads proof_tokens, proofs, apps, accounts, memberships
 * and signins: the tables announced on PROOF_VIEW_CHANNEL.
 */
export const verifiedProofOf = (sql: SqlClient.SqlClient, tokenHash: string, now: Date) =>
  sql`
    WITH found AS (
      SELECT ${sql.literal(PROOF_COLUMNS)}, t.expires_at AS token_expires,
        ${sql.literal(ENDED_REASON)} AS ended_reason, ${endedAtOf(sql, now)} AS ended_at,
        ia.status AS issuing_status, ia.name AS issuing_name, ra.name AS receiving_name
      FROM proof_tokens t
      JOIN proofs p ON p.id = t.proof_id
      JOIN apps ia ON ia.app_id = p.issuing_app
      JOIN apps ra ON ra.app_id = p.receiving_app
      ${sql.literal(CASCADE_JOINS)}
      WHERE t.token_hash = ${tokenHash}
    ),
    settled AS (
      UPDATE proofs q SET revoked_at = found.ended_at, revoke_reason = found.ended_reason FROM found
      WHERE q.id = found.id AND q.revoked_at IS NULL AND found.revoked_at IS NULL AND found.ended_reason IS NOT NULL
    )
    SELECT * FROM found
  `

/**
 * Proofs and their tokens.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class ProofsRepo extends Effect.Service<ProofsRepo>()("accounts/ProofsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const endedAt = (now: Date) => endedAtOf(sql, now)

    const ownerFilter = (owner: ProofOwner): Statement.Fragment =>
      owner.kind === "issuing_app"
        ? sql`p.issuing_app = ${owner.appId}`
        : owner.kind === "account"
        ? sql`p.account_uuid = ${owner.uuid} AND p.kind = 'user_verification'`
        : sql`p.kind = 'app_verification' AND p.issuing_app IN (SELECT app_id FROM app_authors WHERE account_uuid = ${owner.uuid})`

    /** Writes the end of every live proof of `filter` whose sign-in, access, account or membership has ended. */
    const settle = (filter: Statement.Fragment, now: Date): Effect.Effect<void> =>
      sql`
        UPDATE proofs q SET revoked_at = ended.at, revoke_reason = ended.reason
        FROM (
          SELECT p.id, ${sql.literal(ENDED_REASON)} AS reason, ${endedAt(now)} AS at
          FROM proofs p ${sql.literal(CASCADE_JOINS)}
          WHERE p.revoked_at IS NULL AND p.kind = 'user_verification' AND ${filter}
        ) ended
        WHERE q.id = ended.id AND ended.reason IS NOT NULL AND q.revoked_at IS NULL
      `.pipe(Effect.orDie, Effect.asVoid)

    const findById = (id: string, now: Date): Effect.Effect<Option.Option<ProofRow>> =>
      Effect.zipRight(
        settle(sql`p.id = ${id}`, now),
        sql`SELECT ${sql.literal(PROOF_COLUMNS)} FROM proofs p LEFT JOIN accounts a ON a.uuid = p.account_uuid WHERE p.id = ${id}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeProofs),
          Effect.map((rows) => Option.fromNullable(rows[0]))
        )
      )

    const proofIdOfToken = (token: string): Effect.Effect<Option.Option<string>> =>
      sql<{ proof_id: string }>`SELECT proof_id FROM proof_tokens WHERE token_hash = ${sha256Hex(token)}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.fromNullable(rows[0]?.proof_id))
      )

    const proofIdOfRefreshToken = (token: string): Effect.Effect<Option.Option<string>> =>
      sql<{ proof_id: string }>`SELECT proof_id FROM proof_refresh_tokens WHERE token_hash = ${sha256Hex(token)}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.fromNullable(rows[0]?.proof_id))
      )

    /** A new proof token and refresh token for a proof. */
    const addTokens = (proofId: string, tokenExpiresAt: Date, now: Date) =>
      Effect.gen(function*() {
        const token = randomToken(PROOF_TOKEN_PREFIX)
        const refreshToken = randomToken(PROOF_REFRESH_TOKEN_PREFIX)
        yield* sql`
          WITH access AS (
            INSERT INTO proof_tokens (token_hash, proof_id, created_at, expires_at)
            VALUES (${sha256Hex(token)}, ${proofId}, ${now}, ${tokenExpiresAt})
          )
          INSERT INTO proof_refresh_tokens (token_hash, proof_id, created_at) VALUES (${sha256Hex(refreshToken)}, ${proofId}, ${now})
        `.pipe(Effect.orDie)
        return { token, refreshToken }
      })

    /** Inserts the proof and its first tokens (in the caller's transaction). */
    const insert = (id: string, proof: NewProof) =>
      Effect.gen(function*() {
        yield* sql`
          INSERT INTO proofs (id, kind, issuing_app, receiving_app, account_uuid, signin_id, scopes, access_ttl_seconds,
            created_at, token_expires_at, refresh_expires_at)
          VALUES (${id}, ${proof.kind}, ${proof.issuingApp}, ${proof.receivingApp}, ${proof.accountUuid}, ${proof.signinId},
            ${JSON.stringify(proof.scopes)}::jsonb, ${proof.accessTtlSeconds}, ${proof.now}, ${proof.tokenExpiresAt}, ${proof.refreshExpiresAt})
        `.pipe(Effect.orDie)
        return yield* addTokens(id, proof.tokenExpiresAt, proof.now)
      })

    /** Revokes the live App verification proof of this pair, if any: a new one replaces it. */
    const revokeAppVerification = (issuingApp: string, receivingApp: string, now: Date): Effect.Effect<void> =>
      sql`
        UPDATE proofs SET revoked_at = ${now}, revoke_reason = 'revoked_by_app'
        WHERE kind = 'app_verification' AND issuing_app = ${issuingApp} AND receiving_app = ${receivingApp} AND revoked_at IS NULL
      `.pipe(Effect.orDie, Effect.asVoid)

    /**
     * The proof of a token with everything verification rules on, in one statement on the token's
     * primary key; a cascade seen for the first time is written by the same statement.
     */
    /**
     * A proof token's proof as verification reads it (settled on the way), kept in an exact cache: the
     * receiving app asks for every request it serves, and a revocation or cascade anywhere is seen at once.
     */
    const verifyToken = yield* exactCache({
      channel: PROOF_VIEW_CHANNEL,
      capacity: PROOF_VIEW_CACHE_CAPACITY,
      load: (tokenHash: string): Effect.Effect<Option.Option<VerifiedRow>> =>
        Effect.flatMap(now, (at) => verifiedProofOf(sql, tokenHash, at)).pipe(
          Effect.orDie,
          Effect.flatMap(decodeVerified),
          Effect.map((rows) => Option.fromNullable(rows[0]))
        )
    })

    /** A refresh token's proof (settled) and whether the token was used already. */
    const refreshTokenState = (token: string, now: Date) =>
      Effect.gen(function*() {
        const tokenHash = sha256Hex(token)
        yield* settle(sql`p.id = (SELECT proof_id FROM proof_refresh_tokens WHERE token_hash = ${tokenHash})`, now)
        const rows = yield* sql`
          SELECT ${sql.literal(PROOF_COLUMNS)}, r.used_at FROM proof_refresh_tokens r
          JOIN proofs p ON p.id = r.proof_id LEFT JOIN accounts a ON a.uuid = p.account_uuid
          WHERE r.token_hash = ${tokenHash}
        `.pipe(Effect.orDie, Effect.flatMap(decodeRefreshStates))
        return Option.fromNullable(rows[0])
      })

    /** Marks a refresh token used, in one statement: false when another use got there first. */
    const spendRefreshToken = (token: string, now: Date): Effect.Effect<boolean> =>
      sql`UPDATE proof_refresh_tokens SET used_at = ${now} WHERE token_hash = ${sha256Hex(token)} AND used_at IS NULL RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length === 1)
      )

    /** Records a refresh: the newest token's expiry and lifetime. */
    const refreshed = (id: string, tokenExpiresAt: Date, accessTtlSeconds: number, now: Date): Effect.Effect<void> =>
      sql`
        UPDATE proofs SET token_expires_at = ${tokenExpiresAt}, access_ttl_seconds = ${accessTtlSeconds}, last_refreshed_at = ${now}
        WHERE id = ${id}
      `.pipe(Effect.orDie, Effect.asVoid)

    /** Revokes a live proof; false when it was revoked already (nothing changes). */
    const revoke = (id: string, reason: RevokeReason, now: Date): Effect.Effect<boolean> =>
      sql`UPDATE proofs SET revoked_at = ${now}, revoke_reason = ${reason} WHERE id = ${id} AND revoked_at IS NULL RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length === 1)
      )

    /** A page of proofs, newest first, after settling the owner's live ones. */
    const list = (query: ProofListQuery): Effect.Effect<ReadonlyArray<ProofRow>> =>
      Effect.gen(function*() {
        const owner = ownerFilter(query.owner)
        yield* settle(owner, query.now)
        const kind = query.kind === undefined ? sql`true` : sql`p.kind = ${query.kind}`
        const status = query.status === undefined
          ? sql`true`
          : query.status === "revoked"
          ? sql`p.revoked_at IS NOT NULL`
          : query.status === "active"
          ? sql`p.revoked_at IS NULL AND p.refresh_expires_at > ${query.now}`
          : sql`p.revoked_at IS NULL AND p.refresh_expires_at <= ${query.now}`
        const after = query.after === undefined
          ? sql`true`
          : sql`(p.created_at, p.id) < (${new Date(query.after.createdAt)}, ${query.after.id})`
        return yield* sql`
          SELECT ${sql.literal(PROOF_COLUMNS)} FROM proofs p LEFT JOIN accounts a ON a.uuid = p.account_uuid
          WHERE ${owner} AND ${kind} AND ${status} AND ${after}
          ORDER BY p.created_at DESC, p.id DESC LIMIT ${query.limit + 1}
        `.pipe(Effect.orDie, Effect.flatMap(decodeProofs))
      })

    /** Retention: proof tokens whose expiry is before `before` (spec 1: 1 day after expiry). */
    const sweepTokens = (before: Date): Effect.Effect<number> =>
      sql`DELETE FROM proof_tokens WHERE expires_at < ${before} RETURNING 1`.pipe(Effect.orDie, Effect.map((rows) => rows.length))

    /** Retention: every token of a proof that ended (revoked or past its refresh) before `before` (spec 1: 30 days after). */
    const sweepEndedProofTokens = (before: Date): Effect.Effect<number> =>
      sql`
        WITH ended AS (
          SELECT id FROM proofs WHERE (revoked_at IS NOT NULL AND revoked_at < ${before}) OR refresh_expires_at < ${before}
        ),
        refresh AS (DELETE FROM proof_refresh_tokens WHERE proof_id IN (SELECT id FROM ended) RETURNING 1),
        access AS (DELETE FROM proof_tokens WHERE proof_id IN (SELECT id FROM ended) RETURNING 1)
        SELECT (SELECT count(*) FROM refresh) + (SELECT count(*) FROM access) AS deleted
      `.pipe(Effect.orDie, Effect.map((rows) => Number(rows[0]?.["deleted"] ?? 0)))

    return {
      findById,
      proofIdOfToken,
      proofIdOfRefreshToken,
      insert,
      addTokens,
      revokeAppVerification,
      verifyToken,
      refreshTokenState,
      spendRefreshToken,
      refreshed,
      revoke,
      list,
      sweepTokens,
      sweepEndedProofTokens
    } as const
  })
}) {}
