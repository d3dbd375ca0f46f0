import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { ValidationFailed } from "@platform/http"
import { randomUUID } from "node:crypto"
import { Duration, Effect, Either, Option } from "effect"
import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccessTokens, audiencesOf } from "../oauth/AccessTokens.ts"
import { AppAccountsRepo } from "../oauth/AppAccountsRepo.ts"
import {
  InvalidProofId,
  InvalidProofRefreshToken,
  InvalidReceivingApp,
  InvalidSubjectToken,
  NotIssuingApp,
  ProofAccountNotActive,
  ProofExpired,
  ProofMembershipInactive,
  ProofNotFound,
  ProofRefreshTokenReused,
  ProofRevoked,
  ReceivingAppDisabled,
  SubjectTokenWrongApp,
  UnknownReceivingApp
} from "./errors.ts"
import {
  DEFAULT_ACCESS_TTL_SECONDS,
  type IssuedProof,
  issuedProofOf,
  isProofId,
  PROOF_REFRESH_LIFETIME,
  PROOF_TOKEN_PREFIX,
  type ProofRow,
  type ProofVerification,
  type RevokeReason,
  userOf
} from "./Proof.ts"
import { type NewProof, ProofsRepo } from "./ProofsRepo.ts"

const INVALID: ProofVerification = { valid: false, expires_at: null }

const earliest = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b)
const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)

/** What an issue request asks for, whoever issues it. */
export interface ProofTerms {
  readonly receiving_app: string
  readonly scopes?: ReadonlyArray<string> | undefined
  readonly access_ttl_seconds?: number | undefined
}

/** How a proof is named in a revocation: exactly one of these. */
export interface ProofReference {
  readonly proof_id?: string | undefined
  readonly proof_token?: string | undefined
  readonly proof_refresh_token?: string | undefined
}

type RefreshRefusal = "unknown" | "not_issuing" | "revoked" | "expired" | "reused"

const refreshRefusal = (refusal: RefreshRefusal) => {
  switch (refusal) {
    case "unknown":
      return new InvalidProofRefreshToken({ message: "The proof refresh token is not valid." })
    case "not_issuing":
      return new NotIssuingApp({ message: "Only the app that issued the proof can refresh it." })
    case "revoked":
      return new ProofRevoked({ message: "The proof was revoked." })
    case "expired":
      return new ProofExpired({ message: "The proof has expired; issue a new one." })
    case "reused":
      return new ProofRefreshTokenReused({ message: "The proof refresh token was used already; the proof is now revoked." })
  }
}

/** Issuing, refreshing, verifying and revoking proofs (spec 1, Proofs). */
export class Proofs extends Effect.Service<Proofs>()("accounts/Proofs", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ProofsRepo
    const accessTokens = yield* AccessTokens
    const appAccounts = yield* AppAccountsRepo
    const apps = yield* AppsRepo

    const invalidSubject = (reason: "not_an_access_token" | "invalid" | "expired" | "revoked", message: string) =>
      new InvalidSubjectToken({ message, details: { reason } })

    /** The account and sign-in of an access token the issuing app itself received, still live. */
    const subjectOf = (issuingApp: string, token: string, now: Date) =>
      Effect.gen(function*() {
        if (token.split(".").length !== 3) {
          return yield* invalidSubject("not_an_access_token", "subject_token must be an access token (a JWT) the app received.")
        }
        const claims = yield* accessTokens.verifyAnyAudience(token, now).pipe(
          Effect.mapError((problem) =>
            problem === "expired"
              ? invalidSubject("expired", "subject_token has expired.")
              : problem === "identity_token"
              ? invalidSubject("not_an_access_token", "An identity token is not an access token.")
              : invalidSubject("invalid", "subject_token is not a valid access token of this service.")
          )
        )
        if (claims.client_id !== issuingApp || !audiencesOf(claims).includes(issuingApp)) {
          return yield* new SubjectTokenWrongApp({ message: "subject_token was issued to another app; send one your app received." })
        }
        const view = yield* appAccounts.findBySignin(claims.sid)
        if (Option.isNone(view) || view.value.uuid !== claims.sub || view.value.signin_client_id !== issuingApp) {
          return yield* invalidSubject("invalid", "subject_token names no sign-in of this app.")
        }
        const signin = view.value
        if (signin.signin_revoked_at !== null) return yield* invalidSubject("revoked", "The sign-in of subject_token was revoked.")
        if (signin.signin_expires_at.getTime() <= now.getTime()) {
          return yield* invalidSubject("expired", "The sign-in of subject_token has ended.")
        }
        if (signin.status !== "active") return yield* new ProofAccountNotActive({ message: "The account is not active." })
        if (signin.membership_status !== "active") {
          return yield* new ProofMembershipInactive({ message: "The account's membership of your app is not active." })
        }
        return { accountUuid: signin.uuid, signinId: claims.sid, signinExpiresAt: signin.signin_expires_at }
      })

    const checkReceivingApp = (issuingApp: string, receivingApp: string) =>
      Effect.gen(function*() {
        if (receivingApp === issuingApp || receivingApp === FIRST_PARTY_APP_ID || receivingApp === DEVELOPER_APP_ID) {
          return yield* new InvalidReceivingApp({ message: "The receiving app must be another app, not your own or a first-party client." })
        }
        const app = yield* apps.credentialsOf(receivingApp)
        if (Option.isNone(app)) {
          return yield* new UnknownReceivingApp({ message: `No app has the id ${JSON.stringify(receivingApp)}.` })
        }
        if (app.value.status !== "active") return yield* new ReceivingAppDisabled({ message: "The receiving app is disabled." })
      })

    const create = (proof: NewProof): Effect.Effect<IssuedProof> =>
      sql.withTransaction(Effect.gen(function*() {
        const id = randomUUID()
        if (proof.kind === "app_verification") yield* repo.revokeAppVerification(proof.issuingApp, proof.receivingApp, proof.now)
        const tokens = yield* repo.insert(id, proof)
        const row = yield* repo.findById(id, proof.now)
        return issuedProofOf(Option.getOrThrow(row), tokens)
      })).pipe(Effect.orDie)

    const termsOf = (issuingApp: string, terms: ProofTerms, now: Date, refreshEnd: Date) => {
      const accessTtlSeconds = terms.access_ttl_seconds ?? DEFAULT_ACCESS_TTL_SECONDS
      return {
        issuingApp,
        receivingApp: terms.receiving_app,
        scopes: [...new Set(terms.scopes ?? [])],
        accessTtlSeconds,
        tokenExpiresAt: earliest(plusSeconds(now, accessTtlSeconds), refreshEnd),
        refreshExpiresAt: refreshEnd,
        now
      }
    }

    const issueUserVerification = (issuingApp: string, terms: ProofTerms & { readonly subject_token: string }, now: Date) =>
      Effect.gen(function*() {
        const subject = yield* subjectOf(issuingApp, terms.subject_token, now)
        yield* checkReceivingApp(issuingApp, terms.receiving_app)
        const refreshEnd = earliest(new Date(now.getTime() + Duration.toMillis(PROOF_REFRESH_LIFETIME)), subject.signinExpiresAt)
        return yield* create({
          kind: "user_verification",
          accountUuid: subject.accountUuid,
          signinId: subject.signinId,
          ...termsOf(issuingApp, terms, now, refreshEnd)
        })
      })

    /** An App verification proof; a live one for the same receiving app is replaced (one per receiving app). */
    const issueAppVerification = (issuingApp: string, terms: ProofTerms, now: Date) =>
      Effect.gen(function*() {
        yield* checkReceivingApp(issuingApp, terms.receiving_app)
        const refreshEnd = new Date(now.getTime() + Duration.toMillis(PROOF_REFRESH_LIFETIME))
        return yield* create({ kind: "app_verification", accountUuid: null, signinId: null, ...termsOf(issuingApp, terms, now, refreshEnd) })
      })

    /**
     * Rotates the refresh token and issues a new proof token. A refusal is the transaction's result, not
     * its failure, so the revocation a reused token causes commits.
     */
    const refresh = (callerApp: string, refreshToken: string, accessTtlSeconds: number | undefined, now: Date) =>
      Effect.gen(function*() {
        const outcome = yield* sql.withTransaction(Effect.gen(function*() {
          const state = yield* repo.refreshTokenState(refreshToken, now)
          if (Option.isNone(state)) return Either.left<RefreshRefusal>("unknown")
          const proof = state.value
          if (proof.issuing_app !== callerApp) return Either.left<RefreshRefusal>("not_issuing")
          if (proof.revoked_at !== null) return Either.left<RefreshRefusal>("revoked")
          const reused = Effect.as(repo.revoke(proof.id, "refresh_token_reuse", now), Either.left<RefreshRefusal>("reused"))
          if (proof.used_at !== null) return yield* reused
          if (proof.refresh_expires_at.getTime() <= now.getTime()) return Either.left<RefreshRefusal>("expired")
          if (!(yield* repo.spendRefreshToken(refreshToken, now))) return yield* reused
          const ttl = accessTtlSeconds ?? proof.access_ttl_seconds
          const tokenExpiresAt = earliest(plusSeconds(now, ttl), proof.refresh_expires_at)
          const tokens = yield* repo.addTokens(proof.id, tokenExpiresAt, now)
          yield* repo.refreshed(proof.id, tokenExpiresAt, ttl, now)
          const row = Option.getOrThrow(yield* repo.findById(proof.id, now))
          return Either.right(issuedProofOf(row, tokens))
        })).pipe(Effect.orDie)
        return yield* Either.match(outcome, { onLeft: (refusal) => Effect.fail(refreshRefusal(refusal)), onRight: Effect.succeed })
      })

    /**
     * Always an answer: valid only when the token is known and unexpired, the proof live, the caller its
     * receiving app, the issuing app active and (User verification) account, membership and sign-in live.
     * `hint` says what was malformed in the input. `holdsUntil` (epoch milliseconds): until when the
     * answer stays true if nothing it read changes; a valid answer only until the token or the proof
     * expires, any other for good (time does not make an invalid proof valid).
     */
    const verify = (callerApp: string, body: unknown, now: Date) =>
      Effect.gen(function*() {
        const token = typeof body === "object" && body !== null && "proof_token" in body ? body.proof_token : undefined
        if (typeof token !== "string" || !token.startsWith(PROOF_TOKEN_PREFIX) || token.length > 200) {
          return { answer: INVALID, hint: `Send {"proof_token": "sap_..."}: the proof token the issuing app gave you.`, holdsUntil: Infinity }
        }
        const found = yield* repo.verifyToken(sha256Hex(token))
        if (Option.isNone(found)) return { answer: INVALID, hint: undefined, holdsUntil: Infinity }
        const row = found.value
        const holdsUntil = Math.min(row.token_expires.getTime(), row.refresh_expires_at.getTime())
        const live = holdsUntil > now.getTime() &&
          row.revoked_at === null && row.ended_reason === null &&
          row.receiving_app === callerApp &&
          row.issuing_status === "active"
        if (!live) return { answer: INVALID, hint: undefined, holdsUntil: Infinity }
        const answer: ProofVerification = {
          valid: true,
          proof_id: row.id,
          kind: row.kind,
          expires_at: row.token_expires.toISOString(),
          issuing_app: { app_id: row.issuing_app, name: row.issuing_name },
          receiving_app: { app_id: row.receiving_app, name: row.receiving_name },
          user: userOf(row),
          scopes: row.scopes
        }
        return { answer, hint: undefined, holdsUntil }
      })

    /** The proof a revocation names, by id, token or refresh token. */
    const referenced = (reference: ProofReference, now: Date) =>
      Effect.gen(function*() {
        const given = [reference.proof_id, reference.proof_token, reference.proof_refresh_token].filter((value) => value !== undefined)
        if (given.length !== 1) {
          const problem = "send exactly one of proof_id, proof_token, proof_refresh_token"
          return yield* new ValidationFailed({ message: `Send exactly one of proof_id, proof_token and proof_refresh_token.`, details: { fields: { proof_id: problem } } })
        }
        const notFound = new ProofNotFound({ message: "No proof has this id or token." })
        const id = reference.proof_id !== undefined
          ? yield* proofId(reference.proof_id)
          : yield* Effect.flatMap(
            reference.proof_token !== undefined
              ? repo.proofIdOfToken(reference.proof_token)
              : repo.proofIdOfRefreshToken(reference.proof_refresh_token!),
            (found) => Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
          )
        return yield* findProof(id, now)
      })

    const proofId = (id: string) =>
      isProofId(id) ? Effect.succeed(id) : Effect.fail(new InvalidProofId({ message: "A proof id is a lowercase uuid." }))

    const findProof = (id: string, now: Date): Effect.Effect<ProofRow, ProofNotFound> =>
      Effect.flatMap(repo.findById(id, now), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new ProofNotFound({ message: "No proof has this id or token." })),
          onSome: Effect.succeed
        }))

    /** The issuing app revokes its proof; revoking twice does nothing. */
    const revokeByApp = (callerApp: string, reference: ProofReference, now: Date) =>
      Effect.gen(function*() {
        const proof = yield* referenced(reference, now)
        if (proof.issuing_app !== callerApp) {
          return yield* new NotIssuingApp({ message: "Only the app that issued the proof can revoke it." })
        }
        yield* repo.revoke(proof.id, "revoked_by_app", now)
      })

    /** A proof of `owns` revoked for `reason`; someone else's is not found. */
    const revokeOwned = (id: string, owns: (proof: ProofRow) => boolean, reason: RevokeReason, now: Date) =>
      Effect.gen(function*() {
        const proof = yield* findProof(yield* proofId(id), now)
        if (!owns(proof)) return yield* new ProofNotFound({ message: "No proof has this id." })
        yield* repo.revoke(proof.id, reason, now)
      })

    return { issueUserVerification, issueAppVerification, refresh, verify, revokeByApp, revokeOwned } as const
  }),
  dependencies: [ProofsRepo.Default, AccessTokens.Default, AppAccountsRepo.Default, AppsRepo.Default]
}) {}
