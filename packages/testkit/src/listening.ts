import { Effect, type Scope } from "effect"
import type { Server } from "node:http"

/** Listens on a free port of 127.0.0.1 for the scope's life and gives the server's origin; closing drops open connections. */
export const listening = (server: Server): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<string>((resume) => {
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(
          address === null || typeof address === "string"
            ? Effect.dieMessage("the server has no port")
            : Effect.succeed(`http://127.0.0.1:${address.port}`)
        )
      })
    }),
    () =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
