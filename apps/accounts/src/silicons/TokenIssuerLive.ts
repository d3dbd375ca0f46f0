import { Layer } from "effect"
import { TokenIssuer } from "../oauth/TokenIssuer.ts"
import { MeViewsLive } from "./MeViewsLive.ts"

/** TokenIssuer with the account views its Token responses carry (a Silicon's with its custody). */
export const TokenIssuerLive = TokenIssuer.Default.pipe(Layer.provide(MeViewsLive))
