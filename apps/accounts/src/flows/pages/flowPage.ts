import type { HttpServerResponse } from "@effect/platform"
import { type Brand, sitePage } from "../../site/layout.ts"
import type { FlowView } from "../FlowView.ts"
import { flowTarget, type Problem, stepPage, type Target } from "./signinSteps.ts"

export const brandOf = (app: FlowView["app"]): Brand => ({
  name: app.name,
  logo_url: app.logo_url,
  logo_dark_url: app.logo_dark_url,
  branding: app.branding,
  copy: app.copy
})

/** The page of a flow at its step, with the refusal of the last move if any (then with that refusal's status). */
export const flowPage = (
  flow: FlowView,
  options: { readonly problem?: Problem | null; readonly status?: number; readonly now: number; readonly target?: Target }
): HttpServerResponse.HttpServerResponse => {
  const page = stepPage(flow, options.target ?? flowTarget(flow.id), options.problem ?? null, options.now)
  return sitePage({ title: page.title, brand: brandOf(flow.app), body: page.body, status: options.status ?? 200 })
}
