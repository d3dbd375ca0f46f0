import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { HtmlPage, HtmlText } from "@platform/http"

/** GET /authorize: a page on the public origin, not JSON. */
export class AuthorizeApi extends HttpApiGroup.make("authorize")
  .add(
    HttpApiEndpoint.get("authorize", "/authorize")
      .addSuccess(HtmlText)
      .addError(HtmlText, { status: 400 })
      .annotate(
        OpenApi.Description,
        "OAuth 2.0 / OpenID Connect authorization endpoint. Query: app_id (client_id alias), redirect_uri, state, code_challenge, code_challenge_method (S256 default, plain), scope, nonce, prompt, intent, method, response_type (code), login_hint (ignored), max_age. An unknown or disabled app or an unregistered redirect_uri gives an HTML error page (400, never a redirect); other refusals redirect (302) with error, error_description, state and iss; prompt=none redirects at once; otherwise the hosted sign-in page."
      )
  )
  .annotate(OpenApi.Title, "Authorize")
  .annotate(HtmlPage, true)
{}
