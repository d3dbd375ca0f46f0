import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, lenient, OriginNotAllowed, RateLimited, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import {
  ChallengeNotFound,
  CodeAlreadyUsed,
  CodeExpired,
  InvalidCode,
  NoCodeSent,
  VerificationLocked
} from "@platform/verification-codes"
import { EmailInUse, EmailLimitReached, EmailNotFound, IdReserved, IdTaken, InvalidId, PhoneInUse, PhoneLimitReached, PhoneNotFound } from "../accounts/errors.ts"
import { CarbonOnly } from "../auth/errors.ts"
import {
  AccountChanged,
  AccountUnavailable,
  ContinueNotAllowed,
  DetailNotOnPage,
  EmailDomainNotAllowed,
  FlowAppDisabled,
  FlowChanged,
  FlowCompleted,
  FlowExpired,
  FlowFailed,
  FlowInvalidRequest,
  FlowNotBound,
  FlowNotFound,
  FlowUnknownApp,
  IdentityInUse,
  InvalidScope,
  InvalidState,
  InvalidStep,
  MethodNotEnabled,
  MethodNotEnabledForMove,
  NoPreviousPage,
  ProviderUnavailable,
  ReauthenticationRequired,
  RedirectUriNotRegistered,
  RequirementsMissing,
  SessionRequired,
  SignupAlreadyCompleted,
  SignupExpired,
  SignupNotAllowed,
  SignupNotBound,
  UnsupportedResponseType
} from "./errors.ts"
import { FlowResponse, ProviderStartResponse } from "./FlowView.ts"
import { takesPhoto } from "../profile/Api.ts"

const FlowPath = Schema.Struct({ id: Schema.String })
const ProviderPath = Schema.Struct({ id: Schema.String, provider: Schema.String.annotations({ description: "idp_a" }) })
const Text = Schema.String.pipe(Schema.maxLength(4096))

/** The authorize query as JSON (unknown fields ignored, empty strings absent) plus the browser's timezone. */
export const NewFlow = lenient(Schema.Struct({
  app_id: Schema.optional(Text),
  client_id: Schema.optional(Text),
  redirect_uri: Schema.optional(Text),
  state: Schema.optional(Text),
  code_challenge: Schema.optional(Text),
  code_challenge_method: Schema.optional(Text),
  scope: Schema.optional(Text),
  nonce: Schema.optional(Text),
  prompt: Schema.optional(Text),
  intent: Schema.optional(Text),
  method: Schema.optional(Text),
  response_type: Schema.optional(Text),
  login_hint: Schema.optional(Text.annotations({ description: "accepted, never stored" })),
  max_age: Schema.optional(Schema.Union(Text, Schema.Number)),
  timezone: Schema.optional(Text.annotations({ description: "IANA name; the default timezone of a sign-up" }))
})).annotations({ identifier: "NewFlow" })

const CodeRequest = lenient(Schema.Struct({ channel: Schema.Literal("email", "phone"), destination: Text }))
  .annotations({ identifier: "FlowCodeRequest" })
const CodeCheck = lenient(Schema.Struct({ code: Schema.String.pipe(Schema.maxLength(20)) })).annotations({ identifier: "FlowCodeCheck" })
export const SignupBody = lenient(Schema.Struct({
  id: Schema.optional(Schema.String.pipe(Schema.maxLength(40)).annotations({ description: "c: id or bare handle; generated when absent" })),
  display_name: Schema.String.pipe(Schema.maxLength(400)),
  dob: Schema.optional(Schema.String.pipe(Schema.maxLength(10))),
  timezone: Schema.optional(Schema.String.pipe(Schema.maxLength(100)))
})).annotations({ identifier: "FlowSignup" })
const DetailAdd = lenient(Schema.Struct({ field: Schema.Literal("email", "phone", "dob"), value: Text }))
  .annotations({ identifier: "FlowDetailAdd" })
const DetailCheck = lenient(Schema.Struct({ field: Schema.Literal("email", "phone"), code: Schema.String.pipe(Schema.maxLength(20)) }))
  .annotations({ identifier: "FlowDetailCheck" })
const DetailsContinue = lenient(Schema.Struct({
  shared: Schema.optionalWith(Schema.Array(Schema.String).pipe(Schema.maxItems(10)), { default: () => [] })
})).annotations({ identifier: "FlowDetailsContinue" })
const Empty = lenient(Schema.Struct({})).annotations({ identifier: "FlowEmptyBody" })

const move = <const Name extends string>(name: Name, path: string) =>
  HttpApiEndpoint.post(name, `/v1/flows/:id${path}`).setPath(FlowPath).addSuccess(FlowResponse)

export class FlowsApi extends HttpApiGroup.make("flows")
  .add(
    HttpApiEndpoint.post("create", "/v1/flows")
      .setPayload(NewFlow)
      .addSuccess(FlowResponse, { status: 201 })
      .addError(errorResponse(FlowUnknownApp))
      .addError(errorResponse(FlowAppDisabled))
      .addError(errorResponse(RedirectUriNotRegistered))
      .addError(errorResponse(FlowInvalidRequest))
      .addError(errorResponse(InvalidScope))
      .addError(errorResponse(UnsupportedResponseType))
      .addError(errorResponse(MethodNotEnabled))
      .addError(errorResponse(InvalidState))
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(RequirementsMissing))
      .annotate(
        OpenApi.Description,
        "Starts a hosted sign-in flow from the authorize query, with the sa_flow cookie (Max-Age 3600). prompt=none is decided at once: complete or failed, still 201. 300 a minute per IP."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/flows/:id")
      .setPath(FlowPath)
      .addSuccess(FlowResponse)
      .addError(errorResponse(RequirementsMissing))
      .annotate(
        OpenApi.Description,
        "The flow. Also claims the answer of an identity provider round trip made from this flow: a linked identity signs its account in (sa_session), a new one goes to signup (sa_signup), a failure shows in flow.error at choose_method."
      )
  )
  .add(
    move("continue", "/continue")
      .addError(errorResponse(SessionRequired))
      .addError(errorResponse(ContinueNotAllowed))
      .addError(errorResponse(ReauthenticationRequired))
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(EmailDomainNotAllowed))
      .addError(errorResponse(AccountChanged))
      .addError(errorResponse(RequirementsMissing))
  )
  .add(move("switch", "/switch"))
  .add(
    move("code", "/code")
      .setPayload(CodeRequest)
      .addError(errorResponse(MethodNotEnabledForMove))
      .addError(errorResponse(EmailDomainNotAllowed))
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(RateLimited))
  )
  .add(
    move("resend", "/code/resend")
      .setPayload(Empty)
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(RateLimited))
  )
  .add(
    move("verify", "/code/verify")
      .setPayload(CodeCheck)
      .addError(errorResponse(InvalidCode))
      .addError(errorResponse(CodeExpired))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(VerificationLocked))
      .addError(errorResponse(AccountUnavailable))
      .addError(errorResponse(EmailDomainNotAllowed))
      .addError(errorResponse(SignupNotAllowed))
      .addError(errorResponse(RequirementsMissing))
  )
  .add(
    move("signup", "/signup")
      .setPayload(SignupBody)
      .addError(errorResponse(SignupNotBound))
      .addError(errorResponse(SignupExpired))
      .addError(errorResponse(SignupAlreadyCompleted))
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(EmailInUse))
      .addError(errorResponse(PhoneInUse))
      .addError(errorResponse(IdentityInUse))
      .addError(errorResponse(RequirementsMissing))
  )
  .add(
    takesPhoto(move("signupPhoto", "/signup/photo"))
      .addError(errorResponse(SignupNotBound))
      .addError(errorResponse(SignupExpired))
      .addError(errorResponse(SignupAlreadyCompleted))
      .annotate(
        OpenApi.Description,
        "At the signup step, with the sa_signup cookie: the photo of the account to be made, from the image's raw bytes and media type, checked and cleaned as POST /v1/me/photo does (PNG, JPEG, WebP or GIF; 2,097,152 bytes, 8192 px a side, 50 megapixels; metadata removed). flow.signup.pfp_url then names it, and the account the sign-up makes takes it as its photo. A new upload replaces the previous one. 20 uploads per hour per sign-up (429 rate_limited with Retry-After)."
      )
  )
  .add(
    HttpApiEndpoint.post("provider", "/v1/flows/:id/providers/:provider")
      .setPath(ProviderPath)
      .setPayload(Empty)
      .addSuccess(ProviderStartResponse)
      .addError(errorResponse(MethodNotEnabledForMove))
      .addError(errorResponse(ProviderUnavailable))
      .annotate(
        OpenApi.Description,
        "Starts a round trip to an identity provider the app enabled and this deployment (or the app, in byo mode) configured: answers the provider's authorization_url (state, nonce, PKCE S256). The provider answers at /v1/providers/{provider}/callback; the flow claims that answer on its next GET."
      )
  )
  .add(
    move("detailsAdd", "/details/add")
      .setPayload(DetailAdd)
      .addError(errorResponse(DetailNotOnPage))
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(FlowInvalidRequest))
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(EmailLimitReached))
      .addError(errorResponse(PhoneLimitReached))
  )
  .add(
    move("detailsVerify", "/details/verify")
      .setPayload(DetailCheck)
      .addError(errorResponse(NoCodeSent))
      .addError(errorResponse(InvalidCode))
      .addError(errorResponse(CodeExpired))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(VerificationLocked))
      .addError(errorResponse(EmailNotFound))
      .addError(errorResponse(PhoneNotFound))
      .addError(errorResponse(EmailInUse))
      .addError(errorResponse(PhoneInUse))
  )
  .add(
    move("detailsContinue", "/details/continue")
      .setPayload(DetailsContinue)
      .addError(errorResponse(DetailNotOnPage))
      .addError(errorResponse(RequirementsMissing))
  )
  .add(move("detailsBack", "/details/back").setPayload(Empty).addError(errorResponse(NoPreviousPage)))
  .add(move("review", "/review").setPayload(Empty).addError(errorResponse(RequirementsMissing)))
  .add(move("cancel", "/cancel").setPayload(Empty))
  .addError(errorResponse(FlowNotFound))
  .addError(errorResponse(FlowNotBound))
  .addError(errorResponse(FlowExpired))
  .addError(errorResponse(OriginNotAllowed))
  .addError(errorResponse(InvalidStep))
  .addError(errorResponse(FlowCompleted))
  .addError(errorResponse(FlowFailed))
  .addError(errorResponse(FlowChanged))
  .annotate(OpenApi.Title, "Hosted sign-in flow")
  .annotate(
    OpenApi.Description,
    "Called by the account site on the same origin. Every route after creation needs the sa_flow cookie of that flow (403 flow_not_bound); every POST needs Origin equal to the public origin (403 origin_not_allowed). Answers {flow} with no-store."
  )
{}
