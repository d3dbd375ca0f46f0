import { randomToken, sha256Hex } from "@platform/crypto"
import { Array, Duration, Effect, Option } from "effect"
import type { AccountRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { validateTimezone } from "../accounts/profileFields.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { CarbonOnly } from "../auth/errors.ts"
import type { SigninRow } from "../oauth/Signin.ts"
import { now } from "@platform/service"
import { type AuthorizeRefusal, checkAuthorizeRequest, type CheckedAuthorizeRequest, parametersFromJson } from "./AuthorizeRequest.ts"
import { BrowserSessions } from "./BrowserSessions.ts"
import { detailPages, grantedDetails } from "./detailPages.ts"
import {
  AccountChanged,
  ContinueNotAllowed,
  EmailDomainNotAllowed,
  FlowAppDisabled,
  FlowInvalidRequest,
  FlowUnknownApp,
  InvalidScope,
  InvalidState,
  MethodNotEnabled,
  NoPreviousPage,
  ReauthenticationRequired,
  RedirectUriNotRegistered,
  RequirementsMissing,
  SessionRequired,
  UnsupportedResponseType,
  DetailNotOnPage
} from "./errors.ts"
import {
  type CookieToSet,
  domainAllowed,
  FLOW_COOKIE,
  FLOW_COOKIE_PREFIX,
  FLOW_LIFETIME,
  FlowCore,
  type FlowCookies,
  type Loaded,
  type Moved
} from "./FlowCore.ts"
import type { FlowRow } from "./FlowRow.ts"
import { FlowsRepo } from "./FlowsRepo.ts"
import { type FlowState, Step } from "./FlowState.ts"
import { Memberships } from "./Memberships.ts"

export type CreateRefusal =
  | FlowUnknownApp
  | FlowAppDisabled
  | RedirectUriNotRegistered
  | FlowInvalidRequest
  | InvalidScope
  | UnsupportedResponseType
  | MethodNotEnabled
  | InvalidState

const refusalError = (refusal: AuthorizeRefusal): CreateRefusal => {
  if (refusal._tag === "Page") {
    switch (refusal.code) {
      case "unknown_app":
        return new FlowUnknownApp({ message: refusal.message })
      case "app_disabled":
        return new FlowAppDisabled({ message: refusal.message })
      case "redirect_uri_not_registered":
        return new RedirectUriNotRegistered({ message: refusal.message })
      case "invalid_request":
        return new FlowInvalidRequest({ message: refusal.message })
    }
  }
  switch (refusal.flowCode) {
    case "invalid_scope":
      return new InvalidScope({ message: refusal.description })
    case "unsupported_response_type":
      return new UnsupportedResponseType({ message: refusal.description })
    case "method_not_enabled":
      return new MethodNotEnabled({ message: refusal.description })
    case "invalid_state":
      return new InvalidState({ message: refusal.description })
    case "invalid_request":
      return new FlowInvalidRequest({ message: refusal.description })
  }
}

const isLiveCarbon = (account: Option.Option<AccountRow>): account is Option.Some<AccountRow> =>
  Option.isSome(account) && account.value.kind === "carbon" && account.value.status === "active"

/** The session is older than max_age allows (OpenID Connect Core §3.1.2.1). */
const tooOld = (state: FlowState, session: SigninRow, at: Date): boolean =>
  state.request.max_age !== null && at.getTime() - session.created_at.getTime() > state.request.max_age * 1000

/** Creating flows and the moves that need no code: continue, switch, the details pages, review and cancel. */
export class FlowEngine extends Effect.Service<FlowEngine>()("accounts/FlowEngine", {
  effect: Effect.gen(function*() {
    const core = yield* FlowCore
    const flows = yield* FlowsRepo
    const apps = yield* AppsRepo
    const accounts = yield* AccountsRepo
    const contacts = yield* ContactsRepo
    const sessions = yield* BrowserSessions
    const memberships = yield* Memberships

    const verifiedEmails = (uuid: string) =>
      Effect.map(contacts.contactsOf(uuid, "email"), (rows) => rows.filter((r) => r.verified_at !== null).map((r) => r.address))

    /** prompt=none: finish with the browser's session now, or fail with the reason the app must send the person back. */
    const decideSilently = (loaded: Loaded, state: FlowState, session: Option.Option<SigninRow>) =>
      Effect.gen(function*() {
        const loginRequired = core.endWith(state, "failed", "login_required", "The person must sign in.")
        if (Option.isNone(session)) return loginRequired
        const account = yield* accounts.findByUuid(session.value.account_uuid)
        if (!isLiveCarbon(account) || tooOld(state, session.value, loaded.at)) return loginRequired
        const config = loaded.app.signin_config
        if (!config.remember_browser || !domainAllowed(config, yield* verifiedEmails(account.value.uuid))) {
          return core.endWith(state, "failed", "interaction_required", "The person must sign in on the page.")
        }
        const membership = yield* memberships.find(loaded.app.app_id, account.value.uuid)
        const values = yield* core.valuesOf(account.value)
        const pages = detailPages(config, state.request, membership, values)
        if (config.required_fields.some((field) => values[field] === null)) {
          return core.endWith(state, "failed", "interaction_required", "The person must add details the app requires.")
        }
        if (pages.length > 0) {
          return core.endWith(state, "failed", "consent_required", "The person must agree to share details with the app.")
        }
        const signedIn = { uuid: account.value.uuid, auth_time: session.value.created_at.toISOString() }
        return yield* core.complete(loaded, state, signedIn, grantedDetails(membership))
      })

    /**
     * Starts a flow for a request already checked (and its app already read) by GET /authorize or POST /v1/flows;
     * with prompt=none it is decided at once.
     */
    const start = (checked: CheckedAuthorizeRequest, timezone: string | undefined, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const at = yield* now
        const session = yield* sessions.live(cookies.session, at)
        const sessionAccount = Option.isSome(session) ? yield* accounts.findByUuid(session.value.account_uuid) : Option.none()
        const state: FlowState = {
          request: checked.request,
          timezone: timezone === undefined ? null : Option.getOrNull(Option.getRight(validateTimezone(timezone))),
          session_account_uuid: isLiveCarbon(sessionAccount) ? sessionAccount.value.uuid : null,
          step: Step.choose_method({ error: null })
        }
        const cookie = randomToken(FLOW_COOKIE_PREFIX)
        const row: FlowRow = {
          id: randomToken("flw_", 16),
          cookie_hash: sha256Hex(cookie),
          app_id: checked.request.app_id,
          state,
          version: 1,
          created_at: at,
          expires_at: new Date(at.getTime() + Duration.toMillis(FLOW_LIFETIME))
        }
        yield* flows.insert(row)
        const flowCookie: CookieToSet = { name: FLOW_COOKIE, value: cookie, maxAge: FLOW_LIFETIME }
        if (!checked.request.prompt.includes("none")) {
          return { flow: yield* core.view(row, checked.app), cookies: [flowCookie] } satisfies Moved
        }
        const loaded = { row, app: checked.app, at }
        return yield* core.commit(loaded, yield* decideSilently(loaded, state, session), [flowCookie])
      })

    /** POST /v1/flows: the authorize request as JSON, checked here, its refusals as flow errors. */
    const create = (body: Readonly<Record<string, unknown>>, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const checked = yield* checkAuthorizeRequest(parametersFromJson(body), apps.find)
        if (checked._tag !== "Valid") return yield* Effect.fail(refusalError(checked))
        const timezone = typeof body["timezone"] === "string" ? body["timezone"] : undefined
        return yield* start(checked, timezone, cookies)
      })

    /** Continue as the browser's signed-in account. */
    const continueAs = (id: string, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const step = yield* core.expectStep(loaded, ["choose_method"])
        const state = loaded.row.state
        const session = yield* sessions.live(cookies.session, loaded.at)
        if (Option.isNone(session) || state.session_account_uuid === null) {
          return yield* new SessionRequired({ message: "This browser is not signed in.", hint: "Choose a way to sign in." })
        }
        if (session.value.account_uuid !== state.session_account_uuid) {
          return yield* new AccountChanged({ message: "This browser signed in as another account meanwhile.", hint: "Reload." })
        }
        const account = yield* accounts.findByUuid(session.value.account_uuid)
        if (Option.isSome(account) && account.value.kind !== "carbon") {
          return yield* new CarbonOnly({ message: "Only a Carbon signs in here." })
        }
        const config = loaded.app.signin_config
        if (!isLiveCarbon(account) || !config.remember_browser) {
          return yield* new ContinueNotAllowed({ message: "This app asks you to sign in again.", hint: "Choose a way to sign in." })
        }
        if (state.request.prompt.includes("login") || tooOld(state, session.value, loaded.at)) {
          return yield* new ReauthenticationRequired({
            message: "The app asks you to prove it is you again.",
            hint: "Sign in with a code."
          })
        }
        if (!domainAllowed(config, yield* verifiedEmails(account.value.uuid))) {
          return yield* new EmailDomainNotAllowed({ message: "This app takes only accounts with an email of its domains." })
        }
        const signedIn = { uuid: account.value.uuid, auth_time: session.value.created_at.toISOString() }
        return yield* core.commit(loaded, yield* core.advance(loaded, state, signedIn, step.error))
      })

    /** Not you: forget the browser's account in this flow and go back to the choice of methods. */
    const switchAccount = (id: string, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const step = yield* core.expectStep(loaded, ["choose_method", "verify_code", "details", "review"])
        return yield* core.commit(loaded, {
          ...loaded.row.state,
          session_account_uuid: null,
          step: Step.choose_method({ error: step._tag === "verify_code" ? null : step.error })
        })
      })

    const continueDetails = (id: string, cookies: FlowCookies, shared: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const step = yield* core.expectStep(loaded, ["details"])
        const state = loaded.row.state
        const page = step.page
        const onPage: ReadonlyArray<string> = page.fields.map(({ field }) => field)
        const stray = shared.find((field) => !onPage.includes(field))
        if (stray !== undefined) {
          return yield* new DetailNotOnPage({ message: `${stray} is not on this page.`, details: { field: stray } })
        }
        const account = Option.getOrThrow(yield* accounts.findByUuid(step.account.uuid))
        const values = yield* core.valuesOf(account)
        const missing = page.fields.filter(({ field, mode }) => mode === "required" && values[field] === null).map((f) => f.field)
        if (missing.length > 0) {
          return yield* new RequirementsMissing({ message: `Add these first: ${missing.join(", ")}.`, details: { missing } })
        }
        const ticked = page.fields
          .filter(({ field, mode }) => mode === "optional" && shared.includes(field))
          .map(({ field }) => field)
        const nowShared = [...step.shared.filter((field) => !onPage.includes(field)), ...ticked]
        const [following, ...after] = step.next_pages
        if (following !== undefined) {
          return yield* core.commit(loaded, {
            ...state,
            step: Step.details({
              ...step,
              previous_pages: [...step.previous_pages, page],
              page: following,
              next_pages: after,
              shared: nowShared,
              detail_challenge: null
            })
          })
        }
        const pages = Array.append(step.previous_pages, page)
        if (step.review) {
          const review = Step.review({ account: step.account, pages, shared: nowShared, error: step.error })
          return yield* core.commit(loaded, { ...state, step: review })
        }
        return yield* core.commit(loaded, yield* core.complete(loaded, state, step.account, core.detailsFromPages(pages, nowShared)))
      })

    const back = (id: string, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const step = yield* core.expectStep(loaded, ["details", "review"])
        const state = loaded.row.state
        if (step._tag === "review") {
          // Back to the last details page, the one review followed.
          return yield* core.commit(loaded, {
            ...state,
            step: Step.details({
              account: step.account,
              previous_pages: Array.initNonEmpty(step.pages),
              page: Array.lastNonEmpty(step.pages),
              next_pages: [],
              shared: step.shared,
              detail_challenge: null,
              review: true,
              error: step.error
            })
          })
        }
        return yield* Array.matchRight(step.previous_pages, {
          onEmpty: () => Effect.fail(new NoPreviousPage({ message: "This is the first page." })),
          onNonEmpty: (before, previous) =>
            core.commit(loaded, {
              ...state,
              step: Step.details({
                ...step,
                previous_pages: before,
                page: previous,
                next_pages: [step.page, ...step.next_pages],
                detail_challenge: null
              })
            })
        })
      })

    const review = (id: string, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const step = yield* core.expectStep(loaded, ["review"])
        const details = core.detailsFromPages(step.pages, step.shared)
        return yield* core.commit(loaded, yield* core.complete(loaded, loaded.row.state, step.account, details))
      })

    const cancel = (id: string, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        yield* core.expectStep(loaded, ["choose_method", "verify_code", "signup", "details", "review"])
        return yield* core.commit(
          loaded,
          core.endWith(loaded.row.state, "complete", "access_denied", "The person cancelled signing in.")
        )
      })

    return { create, start, continueAs, switchAccount, continueDetails, back, review, cancel } as const
  }),
  dependencies: [
    FlowCore.Default,
    FlowsRepo.Default,
    BrowserSessions.Default,
    Memberships.Default,
    AppsRepo.Default,
    AccountsRepo.Default,
    ContactsRepo.Default
  ]
}) {}
