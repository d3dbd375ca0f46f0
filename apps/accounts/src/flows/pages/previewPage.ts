import type { AppRow } from "../../apps/AppRecord.ts"
import { enabledMethods } from "../../apps/signinConfig/publicSigninView.ts"
import type { SigninConfig } from "../../apps/signinConfig/SigninConfig.ts"
import { html } from "@platform/http"
import { sitePage } from "../../site/layout.ts"
import { flowAppOf, type FlowView } from "../FlowView.ts"
import { brandOf } from "./flowPage.ts"
import { stepPage, type Target } from "./signinSteps.ts"

/** An author's preview posts nowhere: its forms sit in an inert block. */
const previewTarget: Target = { action: () => "#", preview: true }

/**
 * The first step of the hosted sign-in page as `config` would make it for `app`, marked as a preview.
 * The methods are those the setup enables, whether or not this deployment has a provider's client yet.
 */
export const previewPage = (app: AppRow, config: SigninConfig, now: number) => {
  const flow: FlowView = {
    id: "preview",
    step: "choose_method",
    expires_at: new Date(now + 60 * 60 * 1000).toISOString(),
    app: flowAppOf(app, config),
    methods: enabledMethods(config),
    signed_in_as: null,
    challenge: null,
    signup: null,
    details: null,
    review: null,
    redirect_to: null,
    error: null,
    prompt: null,
    intent: "signin",
    method_hint: null
  }
  const page = stepPage(flow, previewTarget, null, now)
  return sitePage({
    title: `Preview: ${page.title}`,
    brand: brandOf(flow.app),
    body: html`<p class="preview-note" role="note">Preview: nothing on this page works until the setup is saved.</p>
<div class="stack" inert>${page.body}</div>`
  })
}
