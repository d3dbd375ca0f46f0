import Pg from "pg"
import { createHash } from "node:crypto"

// Statement texts are few and fixed, so their names are worked out once per process.
const names = new Map<string, string>()
const nameOf = (text: string): string => {
  let name = names.get(text)
  if (name === undefined) {
    name = `s_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`
    if (names.size >= 10_000) names.clear()
    names.set(text, name)
  }
  return name
}

type Callback = (error: Error | null, result?: unknown) => void
type Query = (...args: Array<unknown>) => unknown

export interface PoolOptions {
  /**
   * Send every parameterized statement as a named prepared statement, so PostgreSQL plans it
   * once per connection instead of on every execution (the statements we send are static text
   * with parameters: a few hundred names at most). Statements without parameters stay unnamed:
   * they may hold several commands (migrations), which a prepared statement cannot. Only for a
   * PostgreSQL server, never for the embedded one, whose single session several clients share.
   */
  readonly keepPlans: boolean
  /**
   * A statement with no answer after this many milliseconds ends its connection: the server
   * is gone or black-holed, and what waits behind it (the ROLLBACK) then fails at once
   * instead of waiting in turn. The pool replaces the connection.
   */
  readonly queryDeadlineMillis?: number
}

/** Reaches the socket under a pg client: pg offers no public way to drop a connection that hangs. */
export const socketOf = (client: Pg.Client): { destroy: (error: Error) => void } | undefined =>
  (client as unknown as { connection?: { stream?: { destroy: (error: Error) => void } } }).connection?.stream

const clientClass = (options: PoolOptions): typeof Pg.Client =>
  class extends Pg.Client {
    override query(...args: Array<unknown>): never {
      const [config, values] = args
      if (options.keepPlans && typeof config === "string" && Array.isArray(values) && values.length > 0) {
        args[0] = { text: config, values, name: nameOf(config) }
        args.splice(1, 1)
      }
      const last = args.length - 1
      const callback = args[last]
      const deadline = options.queryDeadlineMillis
      if (deadline !== undefined && typeof callback === "function") {
        const timer = setTimeout(() => {
          socketOf(this)?.destroy(new Error(`the database did not answer within ${deadline} ms`))
        }, deadline)
        args[last] = ((error, result) => {
          clearTimeout(timer)
          ;(callback as Callback)(error, result)
        }) satisfies Callback
      }
      return (super.query as Query).apply(this, args) as never
    }
  }

/** A pg pool whose clients follow `options`. */
export const makePool = (config: Pg.PoolConfig, options: PoolOptions): Pg.Pool =>
  new Pg.Pool({ ...config, Client: clientClass(options) })
