import { isCodeChallenge } from "@platform/oauth"
import { Effect, Option, Schema } from "effect"
import type { AppRow } from "../apps/AppRecord.ts"
import { Method } from "../apps/signinConfig/fields.ts"
import { enabledMethods } from "../apps/signinConfig/publicSigninView.ts"
import { PROMPTS, SCOPES } from "../discovery/OpenIdConfiguration.ts"
import { isRegisteredRedirectUri } from "./redirectUri.ts"

export const Scope = Schema.Literal(...SCOPES)
export type Scope = typeof Scope.Type
export const Prompt = Schema.Literal(...PROMPTS)
const isPrompt = Schema.is(Prompt)
export type Prompt = typeof Prompt.Type

/** The longest `state` kept and echoed; browsers and proxies cut URLs not far beyond. */
export const STATE_MAX_LENGTH = 2048

/** An authorize request once every rule of spec 1's parameter table holds (login_hint is dropped). */
export const AuthorizeRequest = Schema.Struct({
  app_id: Schema.String,
  /** Trimmed, otherwise exactly as sent: the token request must repeat it. */
  redirect_uri: Schema.String,
  state: Schema.NullOr(Schema.String),
  code_challenge: Schema.NullOr(Schema.String),
  code_challenge_method: Schema.NullOr(Schema.Literal("S256", "plain")),
  scopes: Schema.Array(Scope),
  nonce: Schema.NullOr(Schema.String),
  prompt: Schema.Array(Prompt),
  intent: Schema.Literal("signin", "signup"),
  method: Schema.NullOr(Method),
  max_age: Schema.NullOr(Schema.Number)
})
export type AuthorizeRequest = typeof AuthorizeRequest.Type

/** Why an authorize request is refused: on an error page (nothing is sent to an unproven redirect_uri) or back to the app. */
export interface PageRefusal {
  readonly _tag: "Page"
  readonly code: "unknown_app" | "app_disabled" | "redirect_uri_not_registered" | "invalid_request"
  readonly message: string
}

export type FlowRefusalCode = "invalid_request" | "invalid_scope" | "unsupported_response_type" | "method_not_enabled" | "invalid_state"

export type AuthorizeRefusal =
  | PageRefusal
  | {
    readonly _tag: "Redirect"
    readonly redirectUri: string
    readonly state: string | null
    readonly error: "invalid_request" | "invalid_scope" | "unsupported_response_type"
    /** The flow error code a JSON caller of POST /v1/flows gets instead. */
    readonly flowCode: FlowRefusalCode
    readonly description: string
  }

const checkedByRules: unique symbol = Symbol("checkAuthorize")

/**
 * An authorize request that holds every rule, with the app it names as read for the check.
 * Only `checkAuthorize` (behind `checkAuthorizeRequest`) makes one, so a flow started from it needs no second check or read.
 */
export interface CheckedAuthorizeRequest {
  readonly _tag: "Valid"
  readonly request: AuthorizeRequest
  readonly app: AppRow
  readonly [checkedByRules]: true
}

export type Checked = CheckedAuthorizeRequest | AuthorizeRefusal

/** Parameters as received: one value each (empty strings already dropped), and the names sent more than once. */
export interface AuthorizeParameters {
  readonly values: Readonly<Record<string, string>>
  readonly repeated: ReadonlyArray<string>
}

export const parametersFromQuery = (search: URLSearchParams): AuthorizeParameters => {
  const values: Record<string, string> = {}
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const [name, value] of search) {
    if (seen.has(name)) repeated.add(name)
    seen.add(name)
    if (value !== "") values[name] = value
  }
  return { values, repeated: [...repeated] }
}

/** POST /v1/flows takes the query as JSON: strings (numbers for max_age), empty ones as absent, unknown names ignored. */
export const parametersFromJson = (body: Readonly<Record<string, unknown>>): AuthorizeParameters => {
  const values: Record<string, string> = {}
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string" && value !== "") values[name] = value
    else if (typeof value === "number" && Number.isFinite(value)) values[name] = String(value)
  }
  return { values, repeated: [] }
}

/** The app the request names, or the page refusal when app_id and client_id disagree or neither is sent. */
const requestedAppId = (parameters: AuthorizeParameters): Option.Option<string> | PageRefusal => {
  const { app_id, client_id } = parameters.values
  if (parameters.repeated.includes("app_id") || parameters.repeated.includes("client_id")) {
    return { _tag: "Page", code: "invalid_request", message: "app_id (or client_id) must be sent once." }
  }
  if (app_id !== undefined && client_id !== undefined && app_id !== client_id) {
    return { _tag: "Page", code: "invalid_request", message: "app_id and client_id name different apps." }
  }
  return Option.fromNullable(app_id ?? client_id)
}

const redirect = (
  redirectUri: string,
  state: string | null,
  error: "invalid_request" | "invalid_scope" | "unsupported_response_type",
  description: string,
  flowCode: FlowRefusalCode = error
): AuthorizeRefusal => ({ _tag: "Redirect", redirectUri, state, error, description, flowCode })

/** Every rule of spec 1's GET /authorize table, in the order that decides where a refusal may go. */
const checkAuthorize = (parameters: AuthorizeParameters, appId: string, found: Option.Option<AppRow>): Checked => {
  if (Option.isNone(found)) return { _tag: "Page", code: "unknown_app", message: `No app has the id ${appId}.` }
  const app = found.value
  if (app.status !== "active") return { _tag: "Page", code: "app_disabled", message: "This app is disabled." }
  const values = parameters.values
  if (parameters.repeated.includes("redirect_uri")) {
    return { _tag: "Page", code: "invalid_request", message: "redirect_uri must be sent once." }
  }
  const redirectUri = values["redirect_uri"]?.trim()
  if (redirectUri === undefined || redirectUri === "") {
    return { _tag: "Page", code: "invalid_request", message: "redirect_uri is required." }
  }
  if (!isRegisteredRedirectUri(app.signin_config.redirect_uris, redirectUri)) {
    return {
      _tag: "Page",
      code: "redirect_uri_not_registered",
      message: "This redirect_uri is not registered for the app."
    }
  }
  const rawState = parameters.repeated.includes("state") ? undefined : values["state"]
  const state = rawState !== undefined && rawState.length <= STATE_MAX_LENGTH ? rawState : null
  if (parameters.repeated.length > 0) {
    return redirect(redirectUri, state, "invalid_request", `Parameters sent more than once: ${parameters.repeated.join(", ")}.`)
  }
  if (rawState !== undefined && rawState.length > STATE_MAX_LENGTH) {
    return redirect(redirectUri, null, "invalid_request", `state is longer than ${STATE_MAX_LENGTH} characters.`, "invalid_state")
  }
  const responseType = values["response_type"]
  if (responseType !== undefined && responseType !== "code") {
    return redirect(redirectUri, state, "unsupported_response_type", "Only response_type=code is supported.")
  }
  const scopeWords = (values["scope"] ?? "").split(" ").filter((word) => word !== "")
  const unknownScopes = scopeWords.filter((word) => !(SCOPES as ReadonlyArray<string>).includes(word))
  if (unknownScopes.length > 0) {
    return redirect(redirectUri, state, "invalid_scope", `Unknown scopes: ${unknownScopes.join(", ")}.`)
  }
  const challenge = values["code_challenge"] ?? null
  const challengeMethod = values["code_challenge_method"] ?? null
  if (challenge === null && challengeMethod !== null) {
    return redirect(redirectUri, state, "invalid_request", "code_challenge_method needs a code_challenge.")
  }
  if (challengeMethod !== null && challengeMethod !== "S256" && challengeMethod !== "plain") {
    return redirect(redirectUri, state, "invalid_request", "code_challenge_method must be S256 or plain.")
  }
  if (challenge !== null && !isCodeChallenge(challenge)) {
    return redirect(redirectUri, state, "invalid_request", "code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.")
  }
  const promptWords = [...new Set((values["prompt"] ?? "").split(" ").filter((word) => word !== ""))]
  const prompts = promptWords.filter(isPrompt)
  if (prompts.length !== promptWords.length) {
    return redirect(redirectUri, state, "invalid_request", "prompt takes none, login, consent or select_account.")
  }
  if (promptWords.includes("none") && promptWords.length > 1) {
    return redirect(redirectUri, state, "invalid_request", "prompt=none cannot be combined with other prompts.")
  }
  const intent = values["intent"] ?? "signin"
  if (intent !== "signin" && intent !== "signup") {
    return redirect(redirectUri, state, "invalid_request", "intent is signin or signup.")
  }
  const methodText = values["method"] ?? null
  const method = enabledMethods(app.signin_config).find((enabled) => enabled === methodText) ?? null
  if (methodText !== null && method === null) {
    return redirect(redirectUri, state, "invalid_request", `The method ${methodText} is not enabled for this app.`, "method_not_enabled")
  }
  const maxAgeText = values["max_age"]
  const maxAge = maxAgeText === undefined ? null : /^\d{1,10}$/.test(maxAgeText) ? Number(maxAgeText) : Number.NaN
  if (maxAge !== null && !Number.isSafeInteger(maxAge)) {
    return redirect(redirectUri, state, "invalid_request", "max_age is a number of seconds.")
  }
  const scopes = SCOPES.filter((scope) => scope === "profile" || scopeWords.includes(scope))
  return {
    _tag: "Valid",
    app,
    [checkedByRules]: true,
    request: {
      app_id: app.app_id,
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: challenge === null ? null : challengeMethod === "plain" ? "plain" : "S256",
      scopes,
      nonce: values["nonce"] ?? null,
      prompt: prompts,
      intent,
      method,
      max_age: maxAge
    }
  }
}

/** The request checked once: the app it names is read, then every rule is applied to it. */
export const checkAuthorizeRequest = (
  parameters: AuthorizeParameters,
  findApp: (appId: string) => Effect.Effect<Option.Option<AppRow>>
): Effect.Effect<Checked> => {
  const appId = requestedAppId(parameters)
  if (!Option.isOption(appId)) return Effect.succeed(appId)
  if (Option.isNone(appId)) return Effect.succeed({ _tag: "Page", code: "invalid_request", message: "app_id is required." })
  return Effect.map(findApp(appId.value), (found) => checkAuthorize(parameters, appId.value, found))
}

/**
 * The account site's own sign-in: the first-party app, back to a page of the site. Nothing is
 * registered to check: the site is this service, and the redirect_uri is made here, never sent.
 */
export const siteSigninRequest = (app: AppRow, redirectUri: string): CheckedAuthorizeRequest => ({
  _tag: "Valid",
  app,
  [checkedByRules]: true,
  request: {
    app_id: app.app_id,
    redirect_uri: redirectUri,
    state: null,
    code_challenge: null,
    code_challenge_method: null,
    scopes: [],
    nonce: null,
    prompt: [],
    intent: "signin",
    method: null,
    max_age: null
  }
})
