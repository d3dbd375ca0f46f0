import Pg from "pg"
import { createHash } from "node:crypto"

/**
 * A pg client that sends every parameterized statement as a named prepared
 * statement, so PostgreSQL plans it once per connection instead of on every
 * execution (the statements we send are static text with parameters: a
 * few hundred names at most). Statements without parameters stay unnamed:
 * they may hold several commands (migrations), which a prepared statement cannot.
 */
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

class PlanKeepingClient extends Pg.Client {
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    if (typeof config === "string" && Array.isArray(values) && values.length > 0) {
      const name = nameOf(config)
      return (super.query as (...args: Array<unknown>) => never)({ text: config, values, name }, callback)
    }
    return (super.query as (...args: Array<unknown>) => never)(config, values, callback)
  }
}

/** A pg pool of plan-keeping clients, for a PostgreSQL server (never for the embedded one, whose single session several clients share). */
export const planKeepingPool = (config: Pg.PoolConfig): Pg.Pool => new Pg.Pool({ ...config, Client: PlanKeepingClient })
