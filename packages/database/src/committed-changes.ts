import { Context, Effect, Option, type Scope } from "effect"
import Pg from "pg"
import { socketOf } from "./pgPool.ts"

/**
 * What a cache of database rows needs to stay exact across processes: a count of the changes
 * committed to its tables (anywhere), and a fence that says when that count is up to date.
 */
export interface ChangeWatch {
  /** Goes up with every change reported on the channel, and whenever a report may have been lost. */
  readonly generation: () => number
  /**
   * Calls `done(true)` once every change committed before the call has been counted in
   * `generation`, or `done(false)` when that cannot be known (the listening connection failed):
   * the caller then reads the database itself.
   */
  readonly fence: (done: (known: boolean) => void) => void
}

/**
 * Committed changes, followed exactly. Tables announce their changes with `changeTriggers`
 * (a NOTIFY on the channel, sent when the writing transaction commits); a process follows
 * them on one listening connection of its own.
 */
export class CommittedChanges extends Context.Tag("@platform/database/CommittedChanges")<CommittedChanges, {
  /**
   * The watch of `channel`, or none where changes cannot be followed exactly: the embedded
   * database is one session shared by every client, so its notifications reach only the
   * session that committed them, not a listener.
   */
  readonly watch: (channel: string) => Option.Option<ChangeWatch>
}>() {}

/** The embedded database's: nothing can be followed, so caches read through. */
export const noCommittedChanges: Context.Tag.Service<CommittedChanges> = { watch: () => Option.none() }

// A fence that has not answered by then ends the listening connection: the waiting lookups read the database.
const fenceDeadlineMillis = 2_000
// After a failed connection or fence, lookups read the database this long before the next attempt.
const retryAfterMillis = 1_000

/**
 * Follows committed changes on a PostgreSQL server, on one connection made with `config`.
 *
 * The fence is an empty query on the listening connection (nothing to parse or plan, answered
 * with EmptyQueryResponse and ReadyForQuery). PostgreSQL signals a listener when a
 * transaction that notified commits, before that transaction's client hears of the commit, and
 * a backend sends the notifications it has been signalled before its next ReadyForQuery. So once
 * the fence's answer is in, every change committed before the fence was sent has been counted.
 * Lookups that wait together share one fence; a lookup never rides a fence sent before it asked.
 */
export const followCommittedChanges = (
  config: Pg.ClientConfig
): Effect.Effect<Context.Tag.Service<CommittedChanges>, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.sync(() => new ChangeListener(config)), (listener) => Effect.sync(() => listener.close()))
    .pipe(Effect.map((listener) => ({ watch: (channel: string) => Option.some(listener.watch(channel)) })))

class ChangeListener {
  readonly #config: Pg.ClientConfig
  readonly #generations = new Map<string, { value: number }>()
  #client: Pg.Client | undefined
  #waiting: Array<(known: boolean) => void> = []
  #fencing = false
  #retryAt = 0
  #closed = false

  constructor(config: Pg.ClientConfig) {
    this.#config = config
  }

  watch(channel: string): ChangeWatch {
    let generation = this.#generations.get(channel)
    if (generation === undefined) {
      generation = { value: 0 }
      this.#generations.set(channel, generation)
      // A channel added while connected: the next fence connects again and listens to every channel.
      if (this.#client !== undefined) this.#drop(this.#client)
    }
    const counter = generation
    return { generation: () => counter.value, fence: (done) => this.#fence(done) }
  }

  close(): void {
    this.#closed = true
    if (this.#client !== undefined) this.#drop(this.#client)
    this.#answer(this.#waiting, false)
    this.#waiting = []
  }

  #fence(done: (known: boolean) => void): void {
    if (this.#closed || Date.now() < this.#retryAt) return done(false)
    this.#waiting.push(done)
    if (this.#fencing) return
    // Sent once the requests that arrived in this turn of the event loop have asked: they share it.
    this.#fencing = true
    setImmediate(() => this.#sendFence())
  }

  #sendFence(): void {
    const batch = this.#waiting
    this.#waiting = []
    if (this.#closed) {
      this.#fencing = false
      return this.#answer(batch, false)
    }
    const finish = (known: boolean) => {
      this.#answer(batch, known)
      if (this.#waiting.length > 0) setImmediate(() => this.#sendFence())
      else this.#fencing = false
    }
    this.#connected()
      .then((client) => this.#emptyQuery(client))
      .then(() => finish(true), () => {
        this.#retryAt = Date.now() + retryAfterMillis
        if (this.#client !== undefined) this.#drop(this.#client)
        finish(false)
      })
  }

  #answer(batch: ReadonlyArray<(known: boolean) => void>, known: boolean): void {
    for (const done of batch) done(known)
  }

  async #connected(): Promise<Pg.Client> {
    if (this.#client !== undefined) return this.#client
    const client = new Pg.Client({ ...this.#config, application_name: "change-listener" })
    client.on("error", () => this.#drop(client))
    client.on("end", () => this.#drop(client))
    client.on("notification", (message) => {
      const generation = this.#generations.get(message.channel)
      if (generation !== undefined) generation.value++
    })
    this.#client = client
    await client.connect()
    for (const channel of this.#generations.keys()) await client.query(`LISTEN ${Pg.escapeIdentifier(channel)}`)
    // Changes committed before the LISTEN took effect were not reported.
    this.#lostReports()
    return client
  }

  #emptyQuery(client: Pg.Client): Promise<unknown> {
    const timer = setTimeout(
      () => socketOf(client)?.destroy(new Error(`no answer to the change fence within ${fenceDeadlineMillis} ms`)),
      fenceDeadlineMillis
    )
    return client.query("").finally(() => clearTimeout(timer))
  }

  #drop(client: Pg.Client): void {
    if (this.#client !== client) return
    this.#client = undefined
    this.#lostReports()
    client.end().catch(() => {})
  }

  #lostReports(): void {
    for (const generation of this.#generations.values()) generation.value++
  }
}
