import { SqlClient } from "@effect/sql"
import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Either, Option } from "effect"
import { IamConfig } from "../config.ts"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.ts"
import type { PublicApplication, RegisteredApplication } from "./Application.ts"
import { type ApplicationRow, ApplicationsRepo } from "./ApplicationsRepo.ts"
import { newClientSecret } from "./clientSecrets.ts"
import { ApplicationNotFound, ScopeNotPending } from "./errors.ts"
import { type RegistrationRequest, validateRegistration } from "./registration.ts"
import { inScopeOrder, isApplicationScope } from "./scopes.ts"
import { publicApplication, registeredApplication } from "./views.ts"

// Compared against when the application is unknown, so that answer costs the same as a wrong secret.
const NO_SECRET = sha256Hex("no application secret")

/** Whether `secret` is the client secret of the application whose stored digest this is (none: unknown application), in the same time either way. */
export const secretMatches = (storedDigest: Option.Option<string>, secret: string): boolean =>
  constantTimeEqual(sha256Hex(secret), Option.getOrElse(storedDigest, () => NO_SECRET))

/** A platform admin's decision on an application's pending critical scopes. */
export interface ScopeReview {
  readonly approve: ReadonlyArray<string>
  readonly reject: ReadonlyArray<string>
}

/** Registering applications, reading them, checking and rotating their client secrets, reviewing critical scopes. */
export class Applications extends Effect.Service<Applications>()("iam/Applications", {
  effect: Effect.gen(function*() {
    const repo = yield* ApplicationsRepo
    const organizations = yield* OrganizationsRepo
    const sql = yield* SqlClient.SqlClient
    const config = yield* IamConfig

    const found = (appId: string, lookup: Effect.Effect<Option.Option<ApplicationRow>>) =>
      Effect.flatMap(
        lookup,
        Option.match({
          onNone: () => Effect.fail(new ApplicationNotFound({ message: `No application has the id ${JSON.stringify(appId)}.` })),
          onSome: Effect.succeed
        })
      )
    const existing = (appId: string): Effect.Effect<ApplicationRow, ApplicationNotFound> => found(appId, repo.find(appId))

    const registered = (appId: string): Effect.Effect<RegisteredApplication, ApplicationNotFound> =>
      Effect.flatMap(existing(appId), (row) => Effect.map(repo.pendingScopes(appId), (pending) => registeredApplication(row, pending)))

    /** Registers an application; its client secret is in this answer only. */
    const register = (request: RegistrationRequest) =>
      Effect.gen(function*() {
        const checked = validateRegistration(request, { loopbackHttp: config.environment === "development" })
        if (Either.isLeft(checked)) {
          return yield* new ValidationFailed({ message: "The registration is not valid.", details: { fields: checked.left } })
        }
        if (request.organizationId !== null && Option.isNone(yield* organizations.find(request.organizationId))) {
          return yield* new ValidationFailed({
            message: "The registration is not valid.",
            details: { fields: { organization_id: "no organization has this id" } }
          })
        }
        const secret = newClientSecret()
        yield* repo.insert(checked.right, sha256Hex(secret), yield* now)
        return { application: yield* Effect.orDie(registered(request.appId)), client_secret: secret }
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))

    /** The application whose id and client secret these are; none for an unknown id or a wrong secret, in the same time. */
    const authenticate = (appId: string, secret: string): Effect.Effect<Option.Option<ApplicationRow>> =>
      Effect.map(repo.find(appId), (row) =>
        secretMatches(Option.map(row, (found) => found.secret_digest), secret) ? row : Option.none())

    /** A new client secret replaces the old one at once; shown in this answer only. */
    const rotateSecret = (application: ApplicationRow) =>
      Effect.gen(function*() {
        const secret = newClientSecret()
        const at = yield* now
        yield* repo.setSecretDigest(application.app_id, sha256Hex(secret), at)
        return { app_id: application.app_id, client_secret: secret, secret_rotated_at: at.toISOString() }
      })

    /**
     * Approves and rejects pending critical scopes in one transaction; approved ones join app_scope, which
     * raises scope_version. Every named scope must be pending.
     */
    const review = (appId: string, decision: ScopeReview, adminUuid: string) =>
      Effect.gen(function*() {
        const named = [...decision.approve, ...decision.reject]
        if (named.length === 0 || new Set(named).size !== named.length) {
          return yield* new ValidationFailed({
            message: "Name each pending scope once, to approve or to reject.",
            details: { fields: { approve: "approve and reject together must name at least one scope, each once" } }
          })
        }
        const row = yield* found(appId, repo.findForUpdate(appId))
        const at = yield* now
        const approved = yield* repo.decideScopes(appId, decision.approve, "approved", adminUuid, at)
        const rejected = yield* repo.decideScopes(appId, decision.reject, "rejected", adminUuid, at)
        if (approved.length + rejected.length !== named.length) {
          const decided = new Set([...approved, ...rejected])
          return yield* new ScopeNotPending({
            message: `Not awaiting review: ${named.filter((scope) => !decided.has(scope)).join(", ")}.`
          })
        }
        if (approved.length > 0) yield* repo.setAppScope(appId, inScopeOrder([...row.app_scope, ...approved.filter(isApplicationScope)]))
        return yield* Effect.orDie(registered(appId))
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))

    return {
      existing,
      registered,
      register,
      authenticate,
      rotateSecret,
      review,
      publicView: (appId: string): Effect.Effect<PublicApplication, ApplicationNotFound> => Effect.map(existing(appId), publicApplication)
    } as const
  }),
  dependencies: [ApplicationsRepo.Default, OrganizationsRepo.Default]
}) {}
