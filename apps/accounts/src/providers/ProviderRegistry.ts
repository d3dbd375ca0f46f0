import { Effect, Option, Redacted, Schema } from "effect"
import type { AppRow } from "../apps/AppRecord.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import type { SigninConfig } from "../apps/signinConfig/SigninConfig.ts"
import { AccountsConfig } from "../config.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { makeRelyingParty, type ProviderClient, type RelyingParty, type VerifiedClaims } from "./OpenIdRelyingParty.ts"
import { ProviderFailed, ProviderName } from "./ProviderAnswer.ts"
import { signedClientSecret } from "./signedClientSecret.ts"

const isProviderName = Schema.is(ProviderName)

/** Where every provider sends its answer back: `{public_url}/v1/providers/{provider}/callback`. */
export const providerCallbackUrl = (publicUrl: string, provider: ProviderName) => `${publicUrl}/v1/providers/${provider}/callback`

/** One external identity provider as the flow uses it. */
export interface ExternalProvider {
  readonly name: ProviderName
  readonly relyingParty: RelyingParty
  /**
   * How the provider sends its answer: `query`, a redirect to the callback (GET), or `form_post`, a
   * cross-site POST to it, held until the same-site GET it is sent on to (see the callback).
   */
  readonly responseMode: "query" | "form_post"
  /** The `error` the provider answers when the person cancels. */
  readonly cancelError: string
  /** The client this app uses now: the deployment's (managed) or the app's own (byo); none when not configured. */
  readonly clientFor: (app: AppRow) => Option.Option<ProviderClient>
  /** The provider's own authorization parameters from the app's config, scope among them. */
  readonly authorizationParameters: (config: SigninConfig) => Readonly<Record<string, string>> & { readonly scope: string }
  /** The provider's checks of the verified claims for this app, beyond the OpenID ones. */
  readonly admit: (config: SigninConfig, claims: VerifiedClaims) => Option.Option<ProviderFailed>
  /** The person's name as the provider offers it: in the ID token, or in the answer itself. */
  readonly nameOf: (claims: VerifiedClaims, answer: URLSearchParams) => string | null
}

const text = (value: unknown): string | null => typeof value === "string" && value.length > 0 ? value : null

/** idp_b's `user` field (first authorization only): `{"name":{"firstName","lastName"},"email"}`. */
const IdpBUser = Schema.parseJson(Schema.Struct({
  name: Schema.optional(Schema.Struct({
    firstName: Schema.optional(Schema.String),
    lastName: Schema.optional(Schema.String)
  }))
}))
const decodeIdpBUser = Schema.decodeUnknownOption(IdpBUser)

/** The name idp_b sends with its first answer, "first last", at most 100 characters; none after that. */
const idpBName = (answer: URLSearchParams): string | null =>
  Option.match(decodeIdpBUser(answer.get("user")), {
    onNone: () => null,
    onSome: ({ name }) => {
      const full = [name?.firstName, name?.lastName].map((part) => part?.trim() ?? "").filter((part) => part.length > 0)
        .join(" ").slice(0, 100)
      return full.length > 0 ? full : null
    }
  })

/** The external identity providers by name: idp_a (OpenID Connect, Google-like) and idp_b (form_post, Apple-like). */
export class ProviderRegistry extends Effect.Service<ProviderRegistry>()("accounts/ProviderRegistry", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const apps = yield* AppsRepo
    const secrets = yield* SecretsAtRest

    /** The app's own sealed idp secret, opened for the one call that needs it. */
    const ownSecret = (appId: string, field: "client_secret" | "private_key") =>
      apps.sealedIdpSecret(appId, field).pipe(
        Effect.flatMap(Option.match({
          // The config said it is set (`*_set`); a secret gone since is a defect, not a sign-in failure.
          onNone: () => Effect.dieMessage(`the app's idp ${field} is not stored`),
          onSome: (sealed) => secrets.open(field === "client_secret" ? "idp_client_secret" : "idp_private_key", sealed)
        })),
        Effect.map(Redacted.make)
      )

    const idpA: ExternalProvider = {
      name: "idp_a",
      relyingParty: yield* makeRelyingParty(config.idpA.issuer),
      responseMode: "query",
      cancelError: "access_denied",
      clientFor: (app) => {
        const own = app.signin_config.idp_a
        if (own.mode === "managed") {
          return Option.map(config.idpA.client, ({ clientId, clientSecret }) => ({ clientId, clientSecret: Effect.succeed(clientSecret) }))
        }
        if (own.client_id === null || !own.client_secret_set) return Option.none()
        return Option.some({ clientId: own.client_id, clientSecret: ownSecret(app.app_id, "client_secret") })
      },
      authorizationParameters: ({ idp_a }) => ({
        scope: "openid email profile",
        prompt: idp_a.prompt,
        ...(idp_a.hosted_domain === null ? {} : { hd: idp_a.hosted_domain })
      }),
      // `hd` is the provider's word for the workspace an account belongs to; the email's domain is not proof of it.
      admit: ({ idp_a }, claims) =>
        idp_a.hosted_domain !== null && claims.hd !== idp_a.hosted_domain
          ? Option.some(new ProviderFailed({ code: "hosted_domain_mismatch", message: `Only accounts of ${idp_a.hosted_domain} may sign in here.` }))
          : Option.none(),
      nameOf: (claims) => text(claims.name)
    }

    /** idp_b's client: the services id, and a client secret signed for each token request with the key. */
    const idpBClient = (
      ids: { readonly servicesId: string; readonly teamId: string; readonly keyId: string },
      privateKey: Effect.Effect<Redacted.Redacted<string>>
    ): ProviderClient => ({
      clientId: ids.servicesId,
      clientSecret: Effect.flatMap(privateKey, (key) => signedClientSecret({ ...ids, privateKey: key }, config.idpB.issuer))
    })

    const idpB: ExternalProvider = {
      name: "idp_b",
      relyingParty: yield* makeRelyingParty(config.idpB.issuer),
      responseMode: "form_post",
      cancelError: "user_cancelled_authorize",
      clientFor: (app) => {
        const own = app.signin_config.idp_b
        if (own.mode === "managed") {
          return Option.map(config.idpB.client, (client) => idpBClient(client, Effect.succeed(client.privateKey)))
        }
        const { key_id, services_id, team_id } = own
        if (services_id === null || team_id === null || key_id === null || !own.private_key_set) return Option.none()
        return Option.some(
          idpBClient({ servicesId: services_id, teamId: team_id, keyId: key_id }, ownSecret(app.app_id, "private_key"))
        )
      },
      // The provider sends the name (first authorization only) in the form it posts, hence form_post.
      authorizationParameters: () => ({ scope: "name email", response_mode: "form_post" }),
      admit: () => Option.none(),
      nameOf: (_claims, answer) => idpBName(answer)
    }
    const providers: Readonly<Record<ProviderName, ExternalProvider>> = { idp_a: idpA, idp_b: idpB }

    /** The provider of this name, if it is one we have. */
    const lookup = (name: string): Option.Option<ExternalProvider> =>
      isProviderName(name) ? Option.some(providers[name]) : Option.none()

    return { lookup } as const
  }),
  dependencies: [SecretsAtRest.Default, AppsRepo.Default]
}) {}
