import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"

const Html = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/html" }))

/** Where identity providers send the browser back: pages and redirects, not JSON. */
export class ProvidersApi extends HttpApiGroup.make("providers")
  .add(
    HttpApiEndpoint.get("callback", "/v1/providers/:provider/callback")
      .setPath(Schema.Struct({ provider: Schema.String.annotations({ description: "idp_a" }) }))
      .addSuccess(HttpApiSchema.Empty(302))
      .addError(Html, { status: 400 })
      .annotate(
        OpenApi.Description,
        "The identity provider's answer (query: state, and code or error). A state that names no live, unanswered round trip gives an HTML error page (400, never a redirect), as does an answer arriving in a browser that does not hold the flow (recorded on the flow as provider_answer_elsewhere). Otherwise the code is exchanged and the ID token checked, the answer or its failure code is recorded for the flow, and the browser is sent (302) to the flow's hosted page, /authorize?flow={id}, whose GET of the flow claims it."
      )
  )
  .annotate(OpenApi.Title, "Identity provider callbacks")
{}
