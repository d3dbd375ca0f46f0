import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Either, Option } from "effect"
import { ShortLivedTokens } from "../application-sessions/ShortLivedTokens.ts"
import { ApplicationsRepo } from "../applications/ApplicationsRepo.ts"
import { Memberships } from "../organizations/Memberships.ts"
import type { ApplicationCheck } from "./Api.ts"
import { distinctBatch } from "./batch.ts"
import { type Consent, ConsentsRepo } from "./ConsentsRepo.ts"
import { HandoffsRepo } from "./HandoffsRepo.ts"
import type { LoginApplication } from "./LoginApplication.ts"
import { chooseReturnTo } from "./returnTo.ts"
import { type Approval, consentIsCurrent, planTokens } from "./rules.ts"

/** Who approves: an identity signed in to IAM directly (bearer or browser session), and that session. */
export interface Approver {
  readonly identityUuid: string
  readonly sessionId: string
}

const check = (appId: string, app: LoginApplication | undefined, consent: Consent | undefined): ApplicationCheck =>
  app === undefined
    ? { app_id: appId, valid: false, problem: "unknown" }
    : {
      app_id: appId,
      valid: true,
      name: app.name,
      app_scope: app.app_scope,
      scope_version: app.scope_version,
      consent_required: app.consent_required,
      consent_current: consentIsCurrent(app, consent)
    }

const byApp = <A extends { readonly app_id: string }>(items: ReadonlyArray<A>): ReadonlyMap<string, A> =>
  new Map(items.map((item) => [item.app_id, item]))

/** The application login handoff (spec 2): what a login would show, and the approval that mints its tokens. */
export class AppLogin extends Effect.Service<AppLogin>()("iam/AppLogin", {
  effect: Effect.gen(function*() {
    const applications = yield* ApplicationsRepo
    const memberships = yield* Memberships
    const consents = yield* ConsentsRepo
    const handoffs = yield* HandoffsRepo
    const shortLived = yield* ShortLivedTokens
    const transaction = inTransaction(yield* SqlClient.SqlClient)

    /** The registered applications among these ids (an unknown id is absent). */
    const loginApplications = (appIds: ReadonlyArray<string>) =>
      Effect.map(applications.findMany(appIds), (rows) =>
        byApp(rows.map((row): LoginApplication => ({
          app_id: row.app_id,
          name: row.name,
          app_scope: row.app_scope,
          scope_version: row.scope_version,
          consent_required: row.consent_required,
          callback_urls: row.callback_urls
        }))))

    /**
     * What a login to these applications (1 to 100 distinct ids, checked by the caller) shows, in order:
     * with a signed-in identity, its consents and active organizations too.
     */
    const overview = (identityUuid: Option.Option<string>, appIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const [apps, given, organizations] = yield* Effect.all([
          loginApplications(appIds),
          Option.match(identityUuid, { onNone: () => Effect.succeed([]), onSome: (uuid) => consents.of(uuid, appIds) }),
          Option.match(identityUuid, { onNone: () => Effect.succeed([]), onSome: memberships.activeOrganizationsOf })
        ])
        const consentOf = byApp(given)
        return {
          applications: appIds.map((appId) => check(appId, apps.get(appId), consentOf.get(appId))),
          organizations,
          /** The registered applications themselves (their callbacks), for the page. */
          found: apps
        }
      })

    /**
     * Checks every approval, then records the consents, the handoff (with where its tokens go) and one token
     * per application, in one transaction: every token is created or none.
     */
    const approveWith = <Where extends string | null, Refusal>(
      approver: Approver,
      approvals: ReadonlyArray<Approval>,
      via: "api" | "page",
      destination: (apps: ReadonlyArray<LoginApplication>) => Either.Either<Where, Refusal>
    ) =>
      Effect.gen(function*() {
        const appIds = yield* distinctBatch(approvals.map((approval) => approval.app_id))
        const [apps, given, organizations] = yield* Effect.all([
          loginApplications(appIds),
          consents.of(approver.identityUuid, appIds),
          memberships.activeOrganizationsOf(approver.identityUuid)
        ])
        const planned = yield* planTokens(approvals, apps, new Set(organizations.map((org) => org.organization_id)), byApp(given))
        const returnTo = yield* destination(planned.map((token) => token.app))
        const at = yield* now
        const requestId = randomToken("hof_", 16)
        yield* handoffs.insert({ requestId, identityUuid: approver.identityUuid, sessionId: approver.sessionId, via, appIds, returnTo, at })
        yield* Effect.forEach(planned, (token) =>
          consents.record({
            identityUuid: approver.identityUuid,
            appId: token.app.app_id,
            scopes: token.consent.scopes,
            scopeVersion: token.consent.scope_version,
            at
          }), { discard: true })
        const tokens = yield* Effect.forEach(planned, (token) =>
          shortLived.mint({
            identityUuid: approver.identityUuid,
            parentSessionId: approver.sessionId,
            appId: token.app.app_id,
            orgIds: token.orgIds,
            scopes: token.scopes,
            requestId
          }))
        return { tokens, returnTo }
      }).pipe(transaction)

    return {
      overview,
      /** The bearer API: the tokens are answered to the caller. */
      approve: (approver: Approver, approvals: ReadonlyArray<Approval>) =>
        Effect.map(approveWith(approver, approvals, "api", () => Either.right(null)), ({ tokens }) => tokens),
      /** The login page: the tokens go to `returnTo`, a registered callback of one of the applications. */
      approveForPage: (approver: Approver, approvals: ReadonlyArray<Approval>, returnTo: string) =>
        approveWith(approver, approvals, "page", (apps) => chooseReturnTo(apps, returnTo))
    } as const
  }),
  dependencies: [ApplicationsRepo.Default, Memberships.Default, ConsentsRepo.Default, HandoffsRepo.Default, ShortLivedTokens.Default]
}) {}
