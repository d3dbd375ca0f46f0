import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted, Schema } from "effect"
import type { AppRow } from "../apps/AppRecord.ts"
import type { SigninConfig } from "../apps/signinConfig/SigninConfig.ts"
import { AccountsConfig } from "../config.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { makeRelyingParty, type ProviderClient, type RelyingParty, type VerifiedClaims } from "./OpenIdRelyingParty.ts"
import { ProviderFailed, ProviderName } from "./ProviderAnswer.ts"

const isProviderName = Schema.is(ProviderName)

/** Where every provider sends its answer back: `{public_url}/v1/providers/{provider}/callback`. */
export const providerCallbackUrl = (publicUrl: string, provider: ProviderName) => `${publicUrl}/v1/providers/${provider}/callback`

/** One external identity provider as the flow uses it. */
export interface ExternalProvider {
  readonly name: ProviderName
  readonly relyingParty: RelyingParty
  /** The client this app uses now: the deployment's (managed) or the app's own (byo); none when not configured. */
  readonly clientFor: (app: AppRow) => Effect.Effect<Option.Option<ProviderClient>>
  /** The provider's own authorization parameters from the app's config. */
  readonly authorizationParameters: (config: SigninConfig) => Readonly<Record<string, string>>
  /** The provider's checks of the verified claims for this app, beyond the OpenID ones. */
  readonly admit: (config: SigninConfig, claims: VerifiedClaims) => Option.Option<ProviderFailed>
}

/** The external identity providers by name: idp_a (OpenID Connect, Google-like). idp_b is added beside it. */
export class ProviderRegistry extends Effect.Service<ProviderRegistry>()("accounts/ProviderRegistry", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const sql = yield* SqlClient.SqlClient
    const secrets = yield* SecretsAtRest

    /** The app's own idp_a client secret, opened; none when it set none. */
    const ownClientSecret = (appId: string) =>
      sql<{ readonly sealed: string | null }>`
        SELECT idp_secrets->>'client_secret' AS sealed FROM apps WHERE app_id = ${appId}
      `.pipe(
        Effect.orDie,
        Effect.flatMap((rows) => {
          const sealed = rows[0]?.sealed ?? null
          return sealed === null ? Effect.succeed(Option.none()) : Effect.map(secrets.open("idp_client_secret", sealed), Option.some)
        })
      )

    const idpA: ExternalProvider = {
      name: "idp_a",
      relyingParty: yield* makeRelyingParty(config.idpA.issuer),
      clientFor: (app) => {
        const own = app.signin_config.idp_a
        if (own.mode === "managed") return Effect.succeed(config.idpA.client)
        if (own.client_id === null) return Effect.succeed(Option.none())
        const clientId = own.client_id
        return Effect.map(ownClientSecret(app.app_id), Option.map((secret) => ({ clientId, clientSecret: Redacted.make(secret) })))
      },
      authorizationParameters: ({ idp_a }) => ({
        prompt: idp_a.prompt,
        ...(idp_a.hosted_domain === null ? {} : { hd: idp_a.hosted_domain })
      }),
      // `hd` is the provider's word for the workspace an account belongs to; the email's domain is not proof of it.
      admit: ({ idp_a }, claims) =>
        idp_a.hosted_domain !== null && claims.hd !== idp_a.hosted_domain
          ? Option.some(new ProviderFailed({ code: "hosted_domain_mismatch", message: `Only accounts of ${idp_a.hosted_domain} may sign in here.` }))
          : Option.none()
    }
    const providers: Readonly<Record<ProviderName, ExternalProvider>> = { idp_a: idpA }

    /** The provider of this name, if it is one we have. */
    const lookup = (name: string): Option.Option<ExternalProvider> =>
      isProviderName(name) ? Option.some(providers[name]) : Option.none()

    return { lookup } as const
  }),
  dependencies: [SecretsAtRest.Default]
}) {}
