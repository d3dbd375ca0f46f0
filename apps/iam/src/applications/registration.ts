import { parameterProblem } from "@platform/http"
import { checkRedirectUri, type RedirectUriPolicy } from "@platform/oauth"
import { Either } from "effect"
import { APP_ID_PATTERN } from "./Application.ts"
import { type ApplicationScope, CRITICAL_SCOPES, DEFAULT_SCOPES, inScopeOrder, isApplicationScope } from "./scopes.ts"
import { type ApplicationEventType, isApplicationEventType } from "./webhookScope.ts"

/** What an operator asks to register (`npm run iam -- applications register`). */
export interface RegistrationRequest {
  readonly appId: string
  readonly name: string
  readonly callbackUrls: ReadonlyArray<string>
  readonly scopes: ReadonlyArray<string>
  readonly webhookScope: ReadonlyArray<string>
  readonly consentRequired: boolean
  readonly ownerUuid: string | null
  readonly organizationId: string | null
}

/** A registration that holds: the scopes split into those in effect now and the critical ones awaiting review. */
export interface ValidRegistration {
  readonly appId: string
  readonly name: string
  readonly callbackUrls: ReadonlyArray<string>
  readonly appScope: ReadonlyArray<ApplicationScope>
  readonly pendingScopes: ReadonlyArray<ApplicationScope>
  readonly webhookScope: ReadonlyArray<ApplicationEventType>
  readonly consentRequired: boolean
  readonly ownerUuid: string | null
  readonly organizationId: string | null
}

export const MAX_CALLBACK_URLS = 10
const MAX_NAME_LENGTH = 100
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const nameProblem = (name: string) =>
  name.trim() === "" || name.length > MAX_NAME_LENGTH || name.trim() !== name
    ? `must be 1 to ${MAX_NAME_LENGTH} characters without leading or trailing spaces`
    : parameterProblem(name)

const listProblem = <A extends string>(values: ReadonlyArray<string>, accepts: (value: string) => value is A, what: string) => {
  const unknown = values.filter((value) => !accepts(value))
  return unknown.length === 0 ? undefined : `${unknown.map((value) => JSON.stringify(value)).join(", ")} ${unknown.length === 1 ? "is" : "are"} not ${what}`
}

const callbackProblem = (urls: ReadonlyArray<string>, policy: RedirectUriPolicy) => {
  if (urls.length === 0 || urls.length > MAX_CALLBACK_URLS) return `give 1 to ${MAX_CALLBACK_URLS} callback URLs`
  if (new Set(urls).size !== urls.length) return "lists a URL twice"
  for (const url of urls) {
    const checked = checkRedirectUri(url, policy)
    if (Either.isLeft(checked)) return `${url} ${checked.left}`
  }
  return undefined
}

/**
 * Checks a registration; problems by field name. Default scopes are always added; critical ones asked for
 * wait for a platform admin, the others take effect at once. Callback URLs use https, or http on loopback
 * when the policy (development) allows it.
 */
export const validateRegistration = (
  request: RegistrationRequest,
  policy: RedirectUriPolicy
): Either.Either<ValidRegistration, Record<string, string>> => {
  const problems: Record<string, string> = {}
  const note = (field: string, problem: string | undefined) => {
    if (problem !== undefined) problems[field] = problem
  }
  note("app_id", APP_ID_PATTERN.test(request.appId) ? undefined : "must be 3 to 30 characters of a-z 0-9 - _")
  note("name", nameProblem(request.name))
  note("callback_urls", callbackProblem(request.callbackUrls, policy))
  note("app_scope", listProblem(request.scopes, isApplicationScope, "an application scope"))
  note("webhook_scope", listProblem(request.webhookScope, isApplicationEventType, "an event applications may subscribe to"))
  note("owner_uuid", request.ownerUuid === null || UUID.test(request.ownerUuid) ? undefined : "must be a lower-case uuid")
  if (Object.keys(problems).length > 0) return Either.left(problems)
  const asked = [...DEFAULT_SCOPES, ...request.scopes.filter(isApplicationScope)]
  return Either.right({
    appId: request.appId,
    name: request.name,
    callbackUrls: request.callbackUrls,
    appScope: inScopeOrder(asked.filter((scope) => !CRITICAL_SCOPES.has(scope))),
    pendingScopes: inScopeOrder(asked.filter((scope) => CRITICAL_SCOPES.has(scope))),
    webhookScope: [...new Set(request.webhookScope.filter(isApplicationEventType))],
    consentRequired: request.consentRequired,
    ownerUuid: request.ownerUuid,
    organizationId: request.organizationId
  })
}
