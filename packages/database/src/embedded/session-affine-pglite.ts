import { PGlite, type PGliteOptions } from "@electric-sql/pglite"

// Extended-protocol messages that leave a query unfinished until the client's Sync.
const unfinishedQueryMessages = new Set(["P", "B", "D", "E", "C", "H"].map((letter) => letter.charCodeAt(0)))
const sync = "S".charCodeAt(0)
const simpleQuery = "Q".charCodeAt(0)

/**
 * PGlite for a `PGLiteSocketServer` shared by several client connections.
 *
 * The server's queue gives PGlite to one client at a time per wire message, and only keeps a
 * client's messages together while `isInTransaction()` is true. A parameterised query is
 * several messages (Parse, Bind, Describe, Execute, Sync), so without this another client's
 * Parse can land in between and replace the unnamed statement: the first client then gets
 * the other's result. Reporting "in transaction" from the first message to the Sync keeps
 * each query together.
 */
export class SessionAffinePGlite extends PGlite {
  #queryUnfinished = false

  constructor(options: PGliteOptions) {
    super(options)
  }

  override isInTransaction(): boolean {
    return this.#queryUnfinished || super.isInTransaction()
  }

  override execProtocolRawStream(
    message: Uint8Array,
    options: Parameters<PGlite["execProtocolRawStream"]>[1]
  ): Promise<void> {
    const type = message[0]
    if (type !== undefined) {
      if (unfinishedQueryMessages.has(type)) this.#queryUnfinished = true
      else if (type === sync || type === simpleQuery) this.#queryUnfinished = false
    }
    return super.execProtocolRawStream(message, options)
  }

  // The socket server calls exec("ROLLBACK") when a client leaves mid-query or mid-transaction.
  override exec(...args: Parameters<PGlite["exec"]>): ReturnType<PGlite["exec"]> {
    this.#queryUnfinished = false
    return super.exec(...args)
  }
}
