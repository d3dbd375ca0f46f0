import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { HtmlPage, HtmlText } from "@platform/http"
import { Schema } from "effect"

export const PageMove = Schema.Literal(
  "continue", "switch", "code", "resend", "verify", "signup", "provider",
  "details_add", "details_verify", "details_continue", "details_back", "review", "cancel"
)
export type PageMove = typeof PageMove.Type

/** A page's form: its fields as strings (a repeated field is refused). */
const PageForm = Schema.Record({ key: Schema.String, value: Schema.String.pipe(Schema.maxLength(4096)) })
  .pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" }))
  .annotations({ identifier: "SigninPageForm" })

/** The hosted sign-in pages' forms: the same moves as /v1/flows, answered with pages (PRG) instead of JSON. */
export class SigninPagesApi extends HttpApiGroup.make("signinPages")
  .add(
    HttpApiEndpoint.post("move", "/signin/:id/:move")
      .setPath(Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)), move: PageMove }))
      .setPayload(PageForm)
      .addSuccess(HtmlText, { status: 303 })
      .addError(HtmlText, { status: 400 })
      .annotate(
        OpenApi.Description,
        "A form of the hosted sign-in page (application/x-www-form-urlencoded), for browsers without script as well: runs the move of the same name of /v1/flows/{id} (needs the sa_flow cookie and Origin equal to the public origin), then redirects (303) to the flow's page, to the app's redirect_uri once the flow is finished, or to the identity provider. A refused move answers the page again with the refusal next to its field, in the refusal's status; a lost or expired flow answers an error page. Fields: code: channel, destination; verify: code; signup: display_name, id, timezone, dob; provider: provider; details_add: field, value; details_verify: field, code; details_continue: share_<field>=on per optional detail shared."
      )
  )
  .annotate(OpenApi.Title, "Hosted sign-in pages")
  .annotate(HtmlPage, true)
{}
