import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { Duration, Effect, Option } from "effect"
import type { AccountRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import type { AppRow } from "../apps/AppRecord.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import type { DetailName } from "../apps/signinConfig/fields.ts"
import type { SigninConfig } from "../apps/signinConfig/SigninConfig.ts"
import { AuthorizationCodes } from "../oauth/AuthorizationCodes.ts"
import { AccountsConfig } from "../config.ts"
import { now } from "@platform/service"
import { ProviderRegistry } from "../providers/ProviderRegistry.ts"
import { type DetailValues, detailPages, grantedDetails, grantedScopes } from "./detailPages.ts"
import {
  FlowCompleted,
  FlowExpired,
  FlowFailed,
  FlowNotBound,
  FlowNotFound,
  InvalidStep,
  RequirementsMissing
} from "./errors.ts"
import { FlowChanged } from "./errors.ts"
import type { FlowRow } from "./FlowRow.ts"
import { FlowsRepo } from "./FlowsRepo.ts"
import {
  type DetailPage,
  type FlowError,
  type FlowState,
  isFinished,
  isOneOf,
  type SignedInAccount,
  Step,
  type StepName,
  type StepOf
} from "./FlowState.ts"
import type { FlowView } from "./FlowView.ts"
import { Memberships } from "./Memberships.ts"
import { withQuery } from "./redirectUri.ts"
import { makeFlowRendering } from "./renderFlow.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"

export const FLOW_LIFETIME = Duration.minutes(60)
export const FLOW_COOKIE = "sa_flow"
export const FLOW_COOKIE_PREFIX = "saf_"

/** The cookies a request carried, by their unprefixed names. */
export interface FlowCookies {
  readonly flow?: string | undefined
  readonly session?: string | undefined
  readonly signup?: string | undefined
}

/** A cookie the answer sets: `sa_flow`, `sa_session` or `sa_signup`. */
export interface CookieToSet {
  readonly name: string
  readonly value: string
  readonly maxAge: Duration.DurationInput
}

export interface Moved {
  readonly flow: FlowView
  readonly cookies: ReadonlyArray<CookieToSet>
}

export interface Loaded {
  readonly row: FlowRow
  readonly app: AppRow
  readonly at: Date
}

/** The review page is on when the app links its terms or privacy policy: the person confirms them with what is shared. */
export const reviewOn = (config: SigninConfig): boolean => config.copy.terms_url !== null || config.copy.privacy_url !== null

/** Whether one of the account's verified emails is in the app's allowed domains; an empty list lets every account in. */
export const domainAllowed = (config: SigninConfig, emails: ReadonlyArray<string>): boolean =>
  config.allowed_email_domains.length === 0 ||
  emails.some((email) => {
    const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase()
    return config.allowed_email_domains.some((allowed) => allowed.toLowerCase() === domain)
  })

/** What every flow move shares: loading and binding, step checks, saving, and how a flow ends. */
export class FlowCore extends Effect.Service<FlowCore>()("accounts/FlowCore", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const flows = yield* FlowsRepo
    const apps = yield* AppsRepo
    const accounts = yield* AccountsRepo
    const memberships = yield* Memberships
    const codes = yield* AuthorizationCodes
    const rendering = yield* makeFlowRendering

    const appOf = (appId: string) => Effect.map(apps.find(appId), Option.getOrThrow)

    /** The flow, bound to this browser by its cookie and not past its 60 minutes (a finished one is still shown). */
    const load = (id: string, cookies: FlowCookies): Effect.Effect<Loaded, FlowNotFound | FlowNotBound | FlowExpired> =>
      Effect.gen(function*() {
        const found = yield* flows.find(id)
        if (Option.isNone(found)) return yield* new FlowNotFound({ message: "No sign-in flow has this id." })
        const row = found.value
        if (cookies.flow === undefined || !constantTimeEqual(sha256Hex(cookies.flow), row.cookie_hash)) {
          return yield* new FlowNotBound({
            message: "This sign-in flow belongs to another browser tab or window.",
            hint: "Start signing in again from the app."
          })
        }
        const at = yield* now
        if (at.getTime() >= row.expires_at.getTime() && !isFinished(row.state.step)) {
          return yield* new FlowExpired({ message: "This sign-in flow has expired.", hint: "Start signing in again from the app." })
        }
        return { row, app: yield* appOf(row.app_id), at }
      })

    /** The flow may make a move from one of these steps: the step it is at. */
    const expectStep = <Name extends StepName>(
      loaded: Loaded,
      steps: ReadonlyArray<Name>
    ): Effect.Effect<StepOf<Name>, FlowCompleted | FlowFailed | InvalidStep> => {
      const step = loaded.row.state.step
      if (step._tag === "complete") return Effect.fail(new FlowCompleted({ message: "This sign-in flow is complete." }))
      if (step._tag === "failed") return Effect.fail(new FlowFailed({ message: "This sign-in flow has failed." }))
      return isOneOf(step, steps) ? Effect.succeed(step) : Effect.fail(
        new InvalidStep({ message: `This move is not possible at step ${step._tag}.`, details: { step: step._tag } })
      )
    }

    const view = (row: FlowRow, app: AppRow) => rendering.render(row, app)

    /** Saves the move and answers the flow as it now is. */
    const commit = (loaded: Loaded, next: FlowState, cookies: ReadonlyArray<CookieToSet> = []) =>
      Effect.gen(function*() {
        const saved = yield* flows.save(loaded.row.id, loaded.row.version, next, loaded.at)
        if (!saved) {
          return yield* new FlowChanged({ message: "The sign-in flow changed meanwhile (another tab?).", hint: "Reload it." })
        }
        const row = { ...loaded.row, state: next, version: loaded.row.version + 1 }
        return { flow: yield* view(row, loaded.app), cookies } satisfies Moved
      })

    const issuerParameters = (state: FlowState): ReadonlyArray<readonly [string, string]> => [
      ...(state.request.state === null ? [] : [["state", state.request.state] as const]),
      ["iss", config.publicUrl] as const
    ]

    /** Ends the flow with an error for the app (prompt=none refusals, access_denied). */
    const endWith = (state: FlowState, step: "complete" | "failed", code: string, message: string): FlowState => {
      const error = { code, message }
      const redirect_to = withQuery(
        state.request.redirect_uri,
        [["error", code], ["error_description", message], ...issuerParameters(state)]
      )
      return { ...state, step: step === "complete" ? Step.complete({ redirect_to, error }) : Step.failed({ redirect_to, error }) }
    }

    const valuesOf = (account: AccountRow): Effect.Effect<DetailValues> => rendering.valuesOf(account)

    /** Mints the code and records the membership: the flow is complete and redirect_to carries the code. */
    const complete = (loaded: Loaded, state: FlowState, signedIn: SignedInAccount, details: ReadonlyArray<DetailName>) =>
      Effect.gen(function*() {
        const uuid = signedIn.uuid
        const account = Option.getOrThrow(yield* accounts.findByUuid(uuid))
        const values = yield* valuesOf(account)
        const missing = loaded.app.signin_config.required_fields.filter((field) => values[field] === null)
        if (missing.length > 0) {
          return yield* new RequirementsMissing({
            message: `The app needs these details first: ${missing.join(", ")}.`,
            details: { missing }
          })
        }
        const request = state.request
        const scopes = grantedScopes(request, details)
        const code = yield* codes.issue({
          appId: loaded.app.app_id,
          accountUuid: uuid,
          redirectUri: request.redirect_uri,
          codeChallenge: request.code_challenge,
          codeChallengeMethod: request.code_challenge_method,
          scope: scopes.join(" "),
          nonce: request.nonce,
          authTime: new Date(signedIn.auth_time),
          now: loaded.at
        })
        yield* memberships.signedIn(loaded.app.app_id, uuid, scopes.filter((s) => s !== "openid" && s !== "offline_access"), loaded.at)
        const redirect_to = withQuery(request.redirect_uri, [["code", code], ...issuerParameters(state)])
        return { ...state, step: Step.complete({ redirect_to, error: null }) } satisfies FlowState
      })

    /** The details the flow shares: every required field of its pages and the optional ones the person chose to share. */
    const detailsFromPages = (pages: ReadonlyArray<DetailPage>, shared: ReadonlyArray<DetailName>): ReadonlyArray<DetailName> =>
      pages.flatMap((page) =>
        page.fields.filter(({ field, mode }) => mode === "required" || shared.includes(field)).map(({ field }) => field)
      )

    /**
     * The account is known (it authenticated, signed up or continued): on to
     * the details pages when something is to be shown, else complete. `error` is what a refused
     * provider round trip left at choose_method (see FlowState).
     */
    const advance = (loaded: Loaded, state: FlowState, signedIn: SignedInAccount, error: FlowError | null = null) =>
      Effect.gen(function*() {
        const account = Option.getOrThrow(yield* accounts.findByUuid(signedIn.uuid))
        const membership = yield* memberships.find(loaded.app.app_id, account.uuid)
        const values = yield* valuesOf(account)
        const pages = detailPages(loaded.app.signin_config, state.request, membership, values)
        const granted = grantedDetails(membership)
        const [first, ...rest] = pages
        if (first === undefined) return yield* complete(loaded, state, signedIn, granted)
        const optional = pages.flatMap((page) => page.fields).filter((field) => field.mode === "optional")
        return {
          ...state,
          step: Step.details({
            account: signedIn,
            previous_pages: [],
            page: first,
            next_pages: rest,
            shared: optional.map(({ field }) => field).filter((field) => granted.includes(field)),
            detail_challenge: null,
            review: reviewOn(loaded.app.signin_config),
            error
          })
        } satisfies FlowState
      })

    return { load, expectStep, commit, view, endWith, complete, advance, detailsFromPages, valuesOf, appOf } as const
  }),
  dependencies: [
    FlowsRepo.Default,
    Memberships.Default,
    ProviderRegistry.Default,
    AppsRepo.Default,
    AccountsRepo.Default,
    ContactsRepo.Default,
    AuthorizationCodes.Default
  ]
}) {}
