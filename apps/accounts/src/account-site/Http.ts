import { type HttpServerResponse } from "@effect/platform"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { compiledGroup, now } from "@platform/service"
import { Effect, Either, Layer, Option } from "effect"
import type { CarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { LinkedIdentities } from "../providers/LinkedIdentities.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { AccountsApi } from "../api.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccessTokens } from "../oauth/AccessTokens.ts"
import { AccountsConfig } from "../config.ts"
import { contactOf } from "../contacts/Contact.ts"
import { DeviceCodesRepo } from "../device/DeviceCodesRepo.ts"
import { deviceRequestOf } from "../device/DeviceRequest.ts"
import { decisionsPerCarbon } from "../device/policy.ts"
import { normalizeUserCode } from "../device/userCode.ts"
import { seeOther } from "../flows/authorizePages.ts"
import { FlowEngine } from "../flows/FlowEngine.ts"
import { sessionOf } from "../oauth/Signin.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { custodianRequest, CUSTODY_PAGE_PATH } from "../silicons/CustodianRequest.ts"
import { CustodianRequestsRepo } from "../silicons/CustodianRequestsRepo.ts"
import { SiliconManagement } from "../silicons/SiliconManagement.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"
import { misdirectedPage } from "../site/publicHost.ts"
import { accountPage } from "./pages/accountPage.ts"
import { custodyPage } from "./pages/custodyPage.ts"
import { devicePage, type DeviceView } from "./pages/devicePage.ts"
import { ACCOUNT_PAGE, makeSiteSignIn, signInPath } from "./siteSignIn.ts"

/** Spec 1's limits keep these lists short (a custodian's Silicons and requests are read in one page of the maximum). */
const LIST_LIMIT = 200
/** The newest live sessions the page lists; "sign out everywhere" ends the rest too. */
const SESSIONS_SHOWN = 100

interface SignedIn {
  readonly carbon: CarbonRow
  readonly signinId: string
}

export const AccountSiteLive = compiledGroup(AccountsApi, "accountSite", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const site = yield* makeSiteSignIn
    const contacts = yield* ContactsRepo
    const identities = yield* LinkedIdentities
    const signins = yield* SigninsRepo
    const silicons = yield* SiliconsRepo
    const manage = yield* SiliconManagement
    const requests = yield* CustodianRequestsRepo
    const codes = yield* DeviceCodesRepo
    const limiter = yield* RateLimiter
    const misdirected = misdirectedPage(config)

    /**
     * A page for the signed-in person: on the wrong host name, the page naming the right one; without
     * a live session, the site's sign-in, coming back to `path` afterwards.
     */
    const forPerson = <E, R>(
      path: string,
      render: (person: SignedIn) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function*() {
        const wrongHost = yield* misdirected
        if (Option.isSome(wrongHost)) return wrongHost.value
        const person = yield* site.signedInCarbon
        return Option.isNone(person) ? seeOther(signInPath(path)) : yield* render(person.value)
      })

    const siliconsInCustody = (carbon: CarbonRow) =>
      Effect.flatMap(silicons.listInCustody(carbon.uuid, LIST_LIMIT, Option.none()), (rows) => Effect.forEach(rows, manage.view))

    const waitingRequests = (carbon: CarbonRow) =>
      Effect.map(
        requests.listIncoming(carbon.uuid, Option.some("pending"), LIST_LIMIT, Option.none()),
        (rows) => rows.map((row) => custodianRequest(row, config.publicUrl))
      )

    /** The request a typed code names, counted against the Carbon's look-up window like GET /v1/device/{user_code}. */
    const deviceView = (carbon: CarbonRow, typed: string | undefined) =>
      Effect.gen(function*() {
        if (typed === undefined || typed.trim() === "") return { _tag: "Ask" } satisfies DeviceView
        const counted = yield* Effect.either(enforceRateLimit(limiter, decisionsPerCarbon, carbon.uuid))
        if (Either.isLeft(counted)) {
          return { _tag: "Refused", typed, message: counted.left.message, status: 429 } satisfies DeviceView
        }
        const userCode = normalizeUserCode(typed)
        const found = userCode === null ? Option.none() : yield* codes.find(userCode)
        if (Option.isSome(found) && found.value.expires_at.getTime() <= (yield* now).getTime()) {
          return {
            _tag: "Refused",
            typed,
            message: "This code has expired: codes work for 10 minutes. Start again on the device for a new one.",
            status: 410
          } satisfies DeviceView
        }
        return Option.isSome(found)
          ? { _tag: "Found", request: deviceRequestOf(found.value) } satisfies DeviceView
          : {
            _tag: "Refused",
            typed,
            message: "No device sign-in is waiting for this code. Check the code on the device; codes work for 10 minutes.",
            status: 404
          } satisfies DeviceView
      })

    return handlers
      .handle("home", () =>
        Effect.gen(function*() {
          const wrongHost = yield* misdirected
          if (Option.isSome(wrongHost)) return wrongHost.value
          return Option.isSome(yield* site.signedInCarbon) ? seeOther(ACCOUNT_PAGE) : yield* site.start(ACCOUNT_PAGE)
        }))
      .handle("account", () =>
        forPerson(ACCOUNT_PAGE, ({ carbon, signinId }) =>
          Effect.gen(function*() {
            const [emails, phones, linked, live, inCustody, waiting] = yield* Effect.all([
              contacts.contactsOf(carbon.uuid, "email"),
              contacts.contactsOf(carbon.uuid, "phone"),
              identities.list(carbon.uuid, LIST_LIMIT, Option.none()),
              Effect.flatMap(now, (at) => signins.listLive(carbon.uuid, at, SESSIONS_SHOWN, Option.none())),
              siliconsInCustody(carbon),
              waitingRequests(carbon)
            ])
            return accountPage({
              carbon,
              emails: emails.map(contactOf),
              phones: phones.map(contactOf),
              identities: linked.slice(0, LIST_LIMIT).map((row) => ({
                id: row.id,
                provider: row.provider,
                email: row.email,
                linked_at: row.created_at.toISOString()
              })),
              sessions: live.map((row) => sessionOf(row, signinId)),
              silicons: inCustody,
              pendingRequests: waiting.length
            })
          })))
      .handle("custody", () =>
        forPerson(CUSTODY_PAGE_PATH, ({ carbon }) =>
          Effect.gen(function*() {
            const [waiting, inCustody] = yield* Effect.all([waitingRequests(carbon), siliconsInCustody(carbon)])
            return custodyPage(waiting, inCustody)
          })))
      .handle("device", ({ urlParams }) =>
        forPerson(
          urlParams.user_code === undefined ? "/device" : `/device?user_code=${encodeURIComponent(urlParams.user_code)}`,
          ({ carbon }) => Effect.map(deviceView(carbon, urlParams.user_code), devicePage)
        ))
      .handle("signIn", ({ urlParams }) =>
        Effect.gen(function*() {
          const wrongHost = yield* misdirected
          return Option.isSome(wrongHost) ? wrongHost.value : yield* site.start(urlParams.next ?? ACCOUNT_PAGE)
        }))
      .handle("signedIn", () => site.finish)
  })).pipe(
  Layer.provide([
    AccountsRepo.Default,
    AppsRepo.Default,
    AccessTokens.Default,
    SigninsRepo.Default,
    ContactsRepo.Default,
    LinkedIdentities.Default,
    SiliconsRepo.Default,
    SiliconManagement.Default,
    CustodianRequestsRepo.Default,
    DeviceCodesRepo.Default,
    FlowEngine.Default
  ])
)
