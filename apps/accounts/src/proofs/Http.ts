import { addResponseHeaders, decodeCursor, DEFAULT_PAGE_SIZE, keepAnswerUntil, noStore, pageOf } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { compiledGroup, now } from "@platform/service"
import { Effect, Layer, Schema } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { AppOrAuthorLive, CurrentAppManager } from "../app-management/AppOrAuthor.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { NotAppOwner } from "../apps/errors.ts"
import { AccountVerificationRepo } from "./AccountVerificationRepo.ts"
import { RESPONSE_TIME_HOURS } from "./AccountVerificationRequest.ts"
import { AppCallerLive, CurrentApp } from "./AppCaller.ts"
import { AppVerificationSingleApp } from "./errors.ts"
import { listItemOf } from "./Proof.ts"
import { Proofs, type ProofTerms } from "./Proofs.ts"
import { type ProofListQuery, type ProofOwner, ProofsRepo } from "./ProofsRepo.ts"

const ProofCursor = Schema.Struct({ createdAt: Schema.String, id: Schema.String })

/** A page of proofs of `owner`, with the list's filters. */
const proofPage = (
  owner: ProofOwner,
  query: { readonly kind?: ProofListQuery["kind"]; readonly status?: ProofListQuery["status"]; readonly limit?: number | undefined; readonly cursor?: string | undefined }
) =>
  Effect.gen(function*() {
    const repo = yield* ProofsRepo
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const after = query.cursor === undefined ? undefined : yield* decodeCursor(ProofCursor, query.cursor)
    const at = yield* now
    const rows = yield* repo.list({ owner, kind: query.kind, status: query.status, after, limit, now: at })
    const page = pageOf(rows, limit, (row) => ({ createdAt: row.created_at.toISOString(), id: row.id }))
    yield* noStore
    return { items: page.items.map((row) => listItemOf(row, at)), next_cursor: page.nextCursor }
  })

/** An App verification request refuses `audiences`: such a proof names one receiving app. */
const appVerification = (issuingApp: string, payload: ProofTerms & { readonly audiences?: unknown }) =>
  Effect.gen(function*() {
    if (payload.audiences !== undefined) {
      return yield* new AppVerificationSingleApp({
        message: "An App verification proof names exactly one receiving app: send receiving_app, not audiences.",
        details: { field: "audiences" }
      })
    }
    const proofs = yield* Proofs
    const issued = yield* proofs.issueAppVerification(issuingApp, payload, yield* now)
    yield* carriesNewSecret
    yield* noStore
    return issued
  })

const ProofsGroupLive = compiledGroup(AccountsApi, "proofs", (handlers) =>
  Effect.gen(function*() {
    const proofs = yield* Proofs
    const context = yield* Effect.context<Proofs>()
    return handlers
      .handle("userVerification", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const issued = yield* proofs.issueUserVerification(app.appId, payload, yield* now)
          yield* carriesNewSecret
          yield* noStore
          return issued
        }))
      .handle("appVerification", ({ payload }) =>
        Effect.flatMap(CurrentApp, (app) => appVerification(app.appId, payload).pipe(Effect.provide(context))))
      .handle("refresh", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const refreshed = yield* proofs.refresh(app.appId, payload.proof_refresh_token, payload.access_ttl_seconds, yield* now)
          yield* carriesNewSecret
          yield* noStore
          return refreshed
        }))
      .handle("verify", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const { answer, hint, holdsUntil } = yield* proofs.verify(app.appId, payload, yield* now)
          // Replayed to the same credentials and body until either expires or a change reaches the proof's tables.
          yield* keepAnswerUntil(Math.min(holdsUntil, app.trustedUntil))
          yield* noStore
          if (hint !== undefined) yield* addResponseHeaders({ "x-accounts-hint": hint })
          return answer
        }))
      .handle("revoke", ({ payload }) =>
        Effect.flatMap(CurrentApp, (app) => Effect.flatMap(now, (at) => proofs.revokeByApp(app.appId, payload, at))))
  })).pipe(Layer.provide(AppCallerLive))

const AppProofsLive = compiledGroup(AccountsApi, "appProofs", (handlers) =>
  Effect.gen(function*() {
    const proofs = yield* Proofs
    const context = yield* Effect.context<Proofs | ProofsRepo>()
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentAppManager, (manager) =>
          proofPage({ kind: "issuing_app", appId: manager.appId }, urlParams).pipe(Effect.provide(context))))
      .handle("revoke", ({ path }) =>
        Effect.gen(function*() {
          const manager = yield* CurrentAppManager
          yield* proofs.revokeOwned(
            path.proof_id,
            (proof) => proof.issuing_app === manager.appId,
            manager.kind === "app" ? "revoked_by_app" : "revoked_by_owner",
            yield* now
          )
        }))
      .handle("appVerification", ({ payload }) =>
        Effect.flatMap(CurrentAppManager, (manager) => appVerification(manager.appId, payload).pipe(Effect.provide(context))))
  })).pipe(Layer.provide(AppOrAuthorLive))

const MyProofsLive = compiledGroup(AccountsApi, "myProofs", (handlers) =>
  Effect.gen(function*() {
    const proofs = yield* Proofs
    const context = yield* Effect.context<ProofsRepo>()
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentAccount, (account) =>
          proofPage({ kind: "account", uuid: account.uuid }, urlParams).pipe(Effect.provide(context))))
      .handle("revoke", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          yield* proofs.revokeOwned(path.proof_id, (proof) => proof.account_uuid === account.uuid, "revoked_by_account", yield* now)
        }))
      .handle("appVerifications", ({ urlParams }) =>
        Effect.flatMap(CurrentAccount, (account) =>
          proofPage({ kind: "manager", uuid: account.uuid }, urlParams).pipe(Effect.provide(context))))
  })).pipe(Layer.provide(AccountAuthLive))

const AccountVerificationLive = compiledGroup(AccountsApi, "accountVerification", (handlers) =>
  Effect.gen(function*() {
    const requests = yield* AccountVerificationRepo
    const apps = yield* AppsRepo

    /** The signed-in account, when it authors the app of the path. */
    const author = (appId: string) =>
      Effect.gen(function*() {
        const account = yield* CurrentAccount
        if (!(yield* apps.isAuthor(appId, account.uuid))) {
          return yield* new NotAppOwner({ message: "Only the app's owner and co-authors can ask for account verification from it." })
        }
        return account.uuid
      })

    return handlers
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const uuid = yield* author(path.app_id)
          const request = yield* requests.newest(uuid)
          return { request: request._tag === "Some" ? request.value : null, response_time_hours: RESPONSE_TIME_HOURS }
        }))
      .handle("file", ({ path, payload }) =>
        Effect.gen(function*() {
          const uuid = yield* author(path.app_id)
          const filed = yield* requests.file({ accountUuid: uuid, appId: path.app_id, reason: payload.reason, now: yield* now })
          return filed.created
            ? { request: filed.request, created: true as const, response_time_hours: RESPONSE_TIME_HOURS }
            : { request: filed.request, created: false as const, response_time_hours: RESPONSE_TIME_HOURS }
        }))
  })).pipe(Layer.provide([AccountVerificationRepo.Default, AppsRepo.Default, AccountAuthLive]))

/** The proofs area: its four contracts, over one Proofs service. */
export const ProofsLive = Layer.mergeAll(ProofsGroupLive, AppProofsLive, MyProofsLive, AccountVerificationLive).pipe(
  Layer.provide(Proofs.Default),
  Layer.provide(ProofsRepo.Default)
)
