import { type ApplicationIntrospection, type ApplicationTokenResponse, IamApplicationClient, type IamApplicationCalls } from "@platform/iam-app-api"
import { Effect, Redacted } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** What one application server did with the SLT its front end sent it, through @platform/iam-app-api alone. */
export interface ApplicationOutcome {
  readonly appId: string
  /** The refusal of the exchange tried first with another application's secret. */
  readonly withAnotherSecret: string
  readonly exchanged: ApplicationTokenResponse
  /** The refusal of a second exchange of the same SLT. */
  readonly secondExchange: string
  readonly introspected: ApplicationIntrospection
  readonly refreshed: ApplicationTokenResponse
}

const listen = (server: Server) =>
  Effect.acquireRelease(
    Effect.async<string>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))
    }),
    () => Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
  )

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve(text))
  })

const refusal = <A, E extends { readonly error?: string; readonly _tag: string }>(call: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(call), (error) => error.error ?? error._tag)

const clientOf = (iamUrl: string, appId: string, secret: string): Promise<IamApplicationCalls> =>
  Effect.runPromise(
    Effect.provide(IamApplicationClient, IamApplicationClient.layer({ baseUrl: iamUrl, appId, secret: Redacted.make(secret) }))
  )

/**
 * An application's server: `POST /session {slt}` from its front end (another origin, hence CORS). It first
 * tries the SLT with another application's secret, then exchanges it, exchanges it again, introspects the
 * access token and refreshes, and keeps what happened in `outcomes`.
 */
export const applicationServer = (options: {
  readonly iamUrl: string
  readonly appId: string
  readonly secret: string
  readonly anotherSecret: string
  readonly frontEndOrigin: () => string
}) =>
  Effect.gen(function*() {
    const outcomes: Array<ApplicationOutcome> = []
    const own = yield* Effect.promise(() => clientOf(options.iamUrl, options.appId, options.secret))
    const impostor = yield* Effect.promise(() => clientOf(options.iamUrl, options.appId, options.anotherSecret))
    const signIn = (slt: string) =>
      Effect.gen(function*() {
        const withAnotherSecret = yield* refusal(impostor.exchange(slt))
        const exchanged = yield* own.exchange(slt)
        const secondExchange = yield* refusal(own.exchange(slt))
        const introspected = yield* own.introspect(exchanged.access_token)
        const refreshed = yield* own.refresh(exchanged.refresh_token)
        const outcome: ApplicationOutcome = { appId: options.appId, withAnotherSecret, exchanged, secondExchange, introspected, refreshed }
        outcomes.push(outcome)
        return outcome
      })
    const answer = async (request: IncomingMessage, response: ServerResponse) => {
      const cors = {
        "access-control-allow-origin": options.frontEndOrigin(),
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": "content-type"
      }
      if (request.method === "OPTIONS") return response.writeHead(204, cors).end()
      if (request.method !== "POST" || request.url !== "/session") return response.writeHead(404, cors).end()
      const { slt } = JSON.parse(await bodyOf(request)) as { slt: string }
      const outcome = await Effect.runPromise(Effect.either(signIn(slt)))
      response.writeHead(outcome._tag === "Right" ? 200 : 400, { ...cors, "content-type": "application/json" })
        .end(JSON.stringify(outcome._tag === "Right" ? { signed_in: outcome.right.exchanged.username } : { error: String(outcome.left) }))
    }
    const url = yield* listen(createServer((request, response) => void answer(request, response)))
    return { appId: options.appId, url, outcomes }
  })

const CALLBACK_SCRIPT = `
const servers = JSON.parse(document.getElementById("servers").textContent);
const slts = JSON.parse(decodeURIComponent(location.hash.slice("#slts=".length)));
history.replaceState(null, "", location.pathname + location.search);
const list = document.getElementById("results");
(async () => {
  for (const token of slts) {
    const response = await fetch(servers[token.app_id] + "/session", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ slt: token.slt })
    });
    const item = document.createElement("li");
    item.textContent = token.app_id + ": " + (response.ok ? "signed in" : "refused");
    list.append(item);
  }
  document.getElementById("status").textContent = "Done: " + slts.length + " applications";
})();
`

/**
 * The applications' front end at the login callback: its page reads `slts` from the fragment, clears the
 * fragment, and sends each token to its own application's server.
 */
export const applicationFrontEnd = (servers: () => Readonly<Record<string, string>>) =>
  Effect.map(
    listen(createServer((request, response) => {
      if (!request.url?.startsWith("/callback")) return response.writeHead(404).end()
      const page = `<!doctype html><html lang="en"><title>Applications</title>
<script type="application/json" id="servers">${JSON.stringify(servers())}</script>
<h1>Back at the applications</h1><ul id="results"></ul><p id="status">Signing in…</p>
<script>${CALLBACK_SCRIPT}</script></html>`
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(page)
    })),
    (origin) => ({ origin, callback: `${origin}/callback` })
  )
