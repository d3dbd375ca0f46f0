import type { HttpServerRequest } from "@effect/platform"
import { authenticateClient, invalidClient, type OAuthError } from "@platform/oauth"
import { Effect, Option } from "effect"
import { Applications } from "../applications/Applications.ts"

/** IAM has no public clients on its application endpoints: every caller is an application with its secret. */
export const NO_PUBLIC_CLIENTS: ReadonlyArray<never> = []

/**
 * The application a request to the application endpoints comes from: HTTP Basic app_id:client_secret, or
 * client_id and client_secret in the body (never both). Unknown application and wrong secret: invalid_client.
 */
export const authenticateApplication = (
  request: HttpServerRequest.HttpServerRequest,
  parameters: ReadonlyMap<string, string>
): Effect.Effect<string, OAuthError, Applications> =>
  Effect.flatMap(Applications, (applications) =>
    authenticateClient(
      {
        publicClients: NO_PUBLIC_CLIENTS,
        verifySecret: (appId, secret) =>
          Effect.flatMap(applications.authenticate(appId, secret), (row) => Option.isSome(row) ? Effect.void : Effect.fail(invalidClient()))
      },
      request.headers["authorization"],
      parameters
    ).pipe(Effect.map((client) => client.clientId)))
