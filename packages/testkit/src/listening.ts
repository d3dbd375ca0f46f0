import { Effect, type Scope } from "effect"
import type { Server } from "node:net"

/** Listens on a free port of 127.0.0.1 for the scope's life and gives `http://127.0.0.1:<port>`; closing drops an HTTP server's open connections. */
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
        // An HTTP(S) server drops its open connections; a bare TCP server's owner destroys its sockets first.
        if ("closeAllConnections" in server && typeof server.closeAllConnections === "function") server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
