import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { HtmlText } from "@platform/http"
import { Schema } from "effect"

const ProviderPath = Schema.Struct({ provider: Schema.String.annotations({ description: "idp_a or idp_b" }) })

/** A form_post answer (application/x-www-form-urlencoded), as idp_b sends it. */
const FormPostAnswer = Schema.Struct({
  state: Schema.optional(Schema.String),
  code: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String),
  user: Schema.optional(Schema.String.annotations({ description: "JSON with the person's name, on the first authorization only" }))
}).pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })).annotations({ identifier: "ProviderFormPostAnswer" })

/** Where identity providers send the browser back: pages and redirects, not JSON. */
export class ProvidersApi extends HttpApiGroup.make("providers")
  .add(
    HttpApiEndpoint.get("callback", "/v1/providers/:provider/callback")
      .setPath(ProviderPath)
      .addSuccess(HttpApiSchema.Empty(302))
      .addError(HtmlText, { status: 400 })
      .annotate(
        OpenApi.Description,
        "The identity provider's answer (query: state, and code or error; for idp_b, state only, its answer being the one held by the POST below). A state that names no live, unanswered round trip gives an HTML error page (400, never a redirect), as does an answer arriving in a browser that does not hold the flow (recorded on the flow as provider_answer_elsewhere). Otherwise the code is exchanged and the ID token checked, the answer or its failure code is recorded for the flow, and the browser is sent (302) to the flow's hosted page, /authorize?flow={id}, whose GET of the flow claims it. A state that names a link started at POST /v1/me/identities/{provider} is judged in the browser's account-site session instead and answers a page: 200 when the identity was linked, 400 with the error value otherwise."
      )
  )
  .add(
    HttpApiEndpoint.post("callbackFormPost", "/v1/providers/:provider/callback")
      .setPath(ProviderPath)
      .setPayload(FormPostAnswer)
      .addSuccess(HttpApiSchema.Empty(303))
      .addError(HtmlText, { status: 400 })
      .annotate(
        OpenApi.Description,
        "idp_b's answer by response_mode=form_post: a cross-site POST, which carries none of our cookies. A state that names no live, unanswered round trip of a form_post provider, or one whose answer is held already, gives the HTML error page (400, never a redirect). Otherwise the answer (code or error, and user) is held on the round trip, nothing is exchanged yet, and the browser is sent (303) to GET /v1/providers/{provider}/callback?state=…, a top-level same-site navigation that carries the flow cookie, where the answer is checked as for idp_a."
      )
  )
  .annotate(OpenApi.Title, "Identity provider callbacks")
{}
