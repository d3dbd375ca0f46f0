import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import Provider from "oidc-provider"

export interface ProviderAccount {
  readonly email: string
  readonly email_verified: boolean
  /** Whether the ID token carries the email claims (default); when false only userinfo answers them, as providers do that keep ID tokens minimal. */
  readonly emailInIdToken?: boolean
}

/**
 * panva's oidc-provider on a free loopback port, as an organization's identity provider: one confidential
 * client (`iam`, Basic authentication, PKCE required) whose redirect URI is IAM's callback. Its interaction
 * signs in whoever `signInAs` names last, consenting to openid and email, with no page in between.
 */
export const startIdentityProvider = (redirectUri: string, accounts: Readonly<Record<string, ProviderAccount>>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      let next = ""
      const server = createServer()
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const provider = new Provider(issuer, {
        clients: [{
          client_id: "iam",
          client_secret: "provider-side-secret",
          redirect_uris: [redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic"
        }],
        claims: { openid: ["sub"], email: ["email", "email_verified"] },
        findAccount: (_context, id) => {
          const account = accounts[id]
          if (account === undefined) return undefined
          const { emailInIdToken, ...claims } = account
          return { accountId: id, claims: (use: string) => (use === "id_token" && emailInIdToken === false ? { sub: id } : { sub: id, ...claims }) }
        },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
        // Scoped claims in the ID token too (as most providers do); an account may keep its email to userinfo.
        conformIdTokenClaims: false,
        pkce: { required: () => true },
        cookies: { keys: ["test-cookie-key"] }
      })
      const callback = provider.callback()
      server.on("request", (request, response) => {
        if (!request.url?.startsWith("/interaction/")) return void callback(request, response)
        void (async () => {
          const details = await provider.interactionDetails(request, response)
          const grant = new provider.Grant({ accountId: next, clientId: String(details.params["client_id"]) })
          grant.addOIDCScope("openid email")
          const grantId = await grant.save()
          await provider.interactionFinished(request, response, { login: { accountId: next }, consent: { grantId } }, {
            mergeWithLastSubmission: false
          })
        })().catch(() => {
          response.statusCode = 500
          response.end()
        })
      })
      return { issuer, server, signInAs: (accountId: string) => void (next = accountId) }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

/**
 * A browser: follows redirects by hand (no further than IAM's callback, which it answers with), keeping
 * cookies per origin, so the provider's interaction cookies and IAM's state cookie go where they belong.
 */
export const makeBrowser = () => {
  const jar = new Map<string, Map<string, string>>()
  const cookiesOf = (origin: string) => jar.get(origin) ?? jar.set(origin, new Map()).get(origin)!
  const get = async (url: string) => {
    const origin = new URL(url).origin
    const cookie = [...cookiesOf(origin)].map(([name, value]) => `${name}=${value}`).join("; ")
    const response = await fetch(url, { redirect: "manual", headers: cookie === "" ? {} : { cookie } })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at).trim()
      const value = pair!.slice(at + 1).trim()
      if (value === "" || /max-age=0/i.test(line)) cookiesOf(origin).delete(name)
      else cookiesOf(origin).set(name, value)
    }
    return response
  }
  return {
    cookie: (origin: string, name: string) => cookiesOf(origin).get(name),
    /** GET `url`, then follow redirects until one leaves `until`'s prefix unfollowed or an answer is not a redirect. */
    navigate: (url: string, stopAt?: string) =>
      Effect.promise(async () => {
        let response = await get(url)
        for (let hop = 0; hop < 15 && response.status >= 300 && response.status < 400; hop++) {
          const location = new URL(response.headers.get("location") ?? "", url).href
          if (stopAt !== undefined && location.startsWith(stopAt)) return { response, location }
          url = location
          response = await get(url)
        }
        return { response, location: response.headers.get("location") ?? undefined }
      })
  }
}
