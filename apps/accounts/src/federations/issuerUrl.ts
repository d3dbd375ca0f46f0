import { checkOutboundUrl, type OutboundPolicy } from "@platform/outbound"
import { Either } from "effect"

/**
 * An issuer we will fetch keys from: an https URL (never http, even on loopback) with neither
 * query nor fragment (OpenID Discovery §2), through the outbound guard. Kept exactly as sent,
 * since a token's iss must equal it character for character.
 */
export const checkIssuerUrl = (input: string, policy: OutboundPolicy): Either.Either<string, string> =>
  Either.flatMap(checkOutboundUrl(input, policy), (url) =>
    url.protocol !== "https:"
      ? Either.left("must be an https URL")
      : url.search !== "" || url.hash !== ""
      ? Either.left("must have no query or fragment")
      : Either.right(input))
