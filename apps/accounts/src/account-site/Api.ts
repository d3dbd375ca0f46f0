import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { HtmlPage, HtmlText } from "@platform/http"
import { Schema } from "effect"

const SIGN_IN = "Without a live session the browser is sent (303) to sign in with the account site's own first-party app, " +
  "and brought back here afterwards. Opened on another host name than the public origin, the page says which address to use (421)."

/** The signed-in person's pages of the account site: their account, custody requests, device sign-ins. */
export class AccountSiteApi extends HttpApiGroup.make("accountSite")
  .add(
    HttpApiEndpoint.get("home", "/")
      .addSuccess(HtmlText, { status: 303 })
      .annotate(OpenApi.Description, "The account site: sends the browser to the account page, or to sign in first.")
  )
  .add(
    HttpApiEndpoint.get("account", "/account")
      .addSuccess(HtmlText)
      .annotate(
        OpenApi.Description,
        `The account page: profile (name, photo), emails and phones, sessions, Silicons in custody. Its changes call the account API with the session cookie. ${SIGN_IN}`
      )
  )
  .add(
    HttpApiEndpoint.get("custody", "/account/custody")
      .addSuccess(HtmlText)
      .annotate(
        OpenApi.Description,
        `Custody: the custodian requests waiting for this Carbon (new Silicons and transfers) to accept or decline, and its own pending transfers. The custodian's message links here. ${SIGN_IN}`
      )
  )
  .add(
    HttpApiEndpoint.get("device", "/device")
      .setUrlParams(Schema.Struct({ user_code: Schema.optional(Schema.String.pipe(Schema.maxLength(32))) }))
      .addSuccess(HtmlText)
      .addError(HtmlText, { status: 404 })
      .annotate(
        OpenApi.Description,
        `The device flow's verification_uri: type (or confirm, with ?user_code=) the code shown on the device, see which client asks and when, approve or deny. ${SIGN_IN}`
      )
  )
  .add(
    HttpApiEndpoint.get("signIn", "/account/sign-in")
      .setUrlParams(Schema.Struct({ next: Schema.optional(Schema.String.pipe(Schema.maxLength(2048))) }))
      .addSuccess(HtmlText, { status: 303 })
      .annotate(
        OpenApi.Description,
        "Starts the hosted sign-in flow of the first-party app and sends the browser (303) to its page; next is the site's page to come back to."
      )
  )
  .add(
    HttpApiEndpoint.get("signedIn", "/account/signed-in")
      .addSuccess(HtmlText, { status: 303 })
      .annotate(
        OpenApi.Description,
        "Where the site's own sign-in flow ends: the session cookie is set by then, so the browser goes on (303) to next; the flow's code is not needed and not kept. A cancelled sign-in shows a page."
      )
  )
  .annotate(OpenApi.Title, "Account site pages")
  .annotate(HtmlPage, true)
{}
