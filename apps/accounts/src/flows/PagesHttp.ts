import { clientAddress, requireOrigin, setCookie } from "@platform/http"
import { compiledGroup, now } from "@platform/service"
import { Effect, Either, Layer, Predicate } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { flowPageUrl, refusalPage, seeOther } from "./authorizePages.ts"
import { FlowCodeMoves } from "./FlowCodeMoves.ts"
import type { FlowCookies, Moved } from "./FlowCore.ts"
import { readFlowCookies } from "./flowCookies.ts"
import { FlowEngine } from "./FlowEngine.ts"
import { FlowProviderMoves } from "./FlowProviderMoves.ts"
import { flowPage } from "./pages/flowPage.ts"
import type { Problem } from "./pages/signinSteps.ts"
import type { PageMove } from "./PagesApi.ts"

type Form = Readonly<Record<string, string>>

/** What every refusal of a move carries (the ApiError classes of flows, accounts and verification codes). */
interface Refusal {
  readonly code: string
  readonly status: number
  readonly message: string
  readonly hint?: string | undefined
  readonly details?: unknown
}

const optional = (value: string | undefined) => value === undefined || value.trim() === "" ? undefined : value

const CODE_ERRORS = new Set(["invalid_code", "code_expired", "code_already_used", "verification_locked", "no_code_sent"])
const ID_ERRORS = new Set(["invalid_id", "id_taken", "id_reserved"])

/** The field of the page a refusal concerns, so it is shown next to that field (else above the form). */
const fieldOf = (move: PageMove, form: Form, refusal: Refusal): string | null => {
  const details = refusal.details
  const fields = Predicate.isRecord(details) && Predicate.isRecord(details["fields"]) ? details["fields"] : {}
  switch (move) {
    case "code":
      return refusal.code === "method_not_enabled" ? null : `destination-${form["channel"] === "phone" ? "phone" : "email"}`
    case "verify":
      return CODE_ERRORS.has(refusal.code) ? "code" : null
    case "signup":
      return ID_ERRORS.has(refusal.code) || "id" in fields ? "id" : "display_name" in fields ? "display_name" : null
    case "details_add":
      return `add-${form["field"] ?? ""}`
    case "details_verify":
      return CODE_ERRORS.has(refusal.code) ? "detail-code" : null
    default:
      return null
  }
}

/**
 * The forms of the hosted sign-in page: each runs the flow move of the same name (as /v1/flows does),
 * then redirects (post/redirect/get); a refused move shows the page again with the refusal by its field.
 */
export const SigninPagesLive = compiledGroup(AccountsApi, "signinPages", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const engine = yield* FlowEngine
    const codeMoves = yield* FlowCodeMoves
    const providerMoves = yield* FlowProviderMoves
    const settings = { production: config.environment === "production" }
    const ip = clientAddress(config.trustProxy)

    const run = (move: PageMove, id: string, cookies: FlowCookies, form: Form) =>
      Effect.gen(function*() {
        switch (move) {
          case "continue":
            return yield* engine.continueAs(id, cookies)
          case "switch":
            return yield* engine.switchAccount(id, cookies)
          case "code":
            return yield* codeMoves.requestCode(
              id, cookies, yield* ip, form["channel"] === "phone" ? "phone" : "email", form["destination"] ?? ""
            )
          case "resend":
            return yield* codeMoves.resendCode(id, cookies, yield* ip)
          case "verify":
            return yield* codeMoves.verifyCode(id, cookies, (form["code"] ?? "").replace(/\s/g, ""))
          case "signup":
            return yield* codeMoves.signup(id, cookies, {
              display_name: form["display_name"] ?? "",
              id: optional(form["id"]),
              dob: optional(form["dob"]),
              timezone: optional(form["timezone"])
            })
          case "provider":
            return yield* providerMoves.start(id, cookies, form["provider"] ?? "")
          case "details_add":
            return yield* codeMoves.addDetail(id, cookies, yield* ip, form["field"] ?? "", form["value"] ?? "")
          case "details_verify":
            return yield* codeMoves.verifyDetail(id, cookies, form["field"] ?? "", (form["code"] ?? "").replace(/\s/g, ""))
          case "details_continue":
            return yield* engine.continueDetails(
              id, cookies, Object.keys(form).filter((key) => key.startsWith("share_")).map((key) => key.slice(6))
            )
          case "details_back":
            return yield* engine.back(id, cookies)
          case "review":
            return yield* engine.review(id, cookies)
          case "cancel":
            return yield* engine.cancel(id, cookies)
        }
      })

    const setCookies = (moved: Moved) =>
      Effect.forEach(moved.cookies, (c) => setCookie(settings, c.name, c.value, c.maxAge), { discard: true })

    // A used code or a claimed provider answer must not be lost to a dropped connection: moves run to the end.
    return handlers.handle("move", ({ path, payload }) =>
      Effect.gen(function*() {
        const origin = yield* Effect.either(requireOrigin([config.publicUrl]))
        if (Either.isLeft(origin)) return refusalPage(origin.left)
        const cookies = yield* readFlowCookies(settings)
        const moved = yield* Effect.either(run(path.move, path.id, cookies, payload))
        if (Either.isRight(moved)) {
          yield* setCookies(moved.right)
          const next = moved.right
          const provider = "authorization_url" in next && typeof next.authorization_url === "string"
            ? next.authorization_url
            : undefined
          return seeOther(provider ?? next.flow.redirect_to ?? flowPageUrl(path.id))
        }
        const refusal: Refusal = moved.left
        // The page again, as it is now, with the refusal by its field; a flow that cannot be shown is an error page.
        const shown = yield* Effect.either(providerMoves.get(path.id, cookies))
        if (Either.isLeft(shown)) return refusalPage(shown.left)
        yield* setCookies(shown.right)
        const problem: Problem = {
          code: refusal.code,
          message: refusal.message,
          hint: refusal.hint,
          field: fieldOf(path.move, payload, refusal)
        }
        return flowPage(shown.right.flow, { problem, status: refusal.status, now: (yield* now).getTime() })
      }), { uninterruptible: true })
  })).pipe(Layer.provide([FlowCodeMoves.Default, FlowProviderMoves.Default, FlowEngine.Default]))
