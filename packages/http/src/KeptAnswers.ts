import { Cookies, type HttpServerResponse } from "@effect/platform"
import { sha256Hex } from "@platform/crypto"
import { Context, Effect, FiberRef } from "effect"
import type { IncomingHttpHeaders } from "node:http"

/**
 * Marks an endpoint whose answers the conventions may keep and replay (see KeptAnswers): every
 * table its answer reads announces its changes on `channel`, and the answer depends on nothing of
 * the request but its Authorization header, its API version header, its Content-Type and its body.
 */
export class KeepsAnswers extends Context.Tag("@platform/http/KeepsAnswers")<KeepsAnswers, {
  readonly channel: string
  /** How many answers one process keeps for the endpoint. */
  readonly capacity: number
}>() {}

/**
 * When a kept answer is still exact: the count of changes committed on a channel, and a fence that
 * says when that count is up to date (the shape of @platform/database's ChangeWatch).
 */
export interface AnswerFreshness {
  readonly generation: () => number
  readonly fence: (done: (known: boolean) => void) => void
}

const keptUntil = FiberRef.unsafeMake<number | undefined>(undefined)

/**
 * Says the answer this handler is giving may be replayed to the same request until `untilMillis`
 * (epoch milliseconds), unless a change is committed on the endpoint's channel first. A handler
 * that says nothing is asked again next time. The whole response is replayed, its headers included,
 * with the conventions' own (request id, version) made anew.
 */
export const keepAnswerUntil = (untilMillis: number): Effect.Effect<void> => FiberRef.set(keptUntil, untilMillis)

/** The deadline a handler gave its answer (keepAnswerUntil), if it gave one. */
export const answerKeptUntil: Effect.Effect<number | undefined> = FiberRef.get(keptUntil)

/** What a lookup found: a kept answer, or the generation a new answer may be kept under. */
export type KeptLookup =
  | { readonly _tag: "Kept"; readonly response: HttpServerResponse.HttpServerResponse }
  | { readonly _tag: "Missing"; readonly key: string; readonly generation: number }

interface Entry {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly until: number
}

/**
 * The part of a request a kept answer is keyed by, as one digest (no secret stays in memory as text): the
 * credentials, the API version, and the Content-Type and bytes of the body, all that the body checks read.
 */
export const keptAnswerKey = (headers: IncomingHttpHeaders, versionHeader: string | undefined, body: Buffer): string =>
  sha256Hex(
    `${headers["authorization"] ?? ""}\n${versionHeader === undefined ? "" : headers[versionHeader] ?? ""}\n` +
      `${headers["content-type"] ?? ""}\n${body.toString("latin1")}`
  )

/**
 * One endpoint's kept answers in this process. A lookup first waits for the freshness fence, so a
 * change committed anywhere before the request arrived has already emptied the store; an answer
 * computed while a change was being reported is sent but not kept. When the fence cannot tell (the
 * listening connection failed), nothing is found and nothing is kept. At `capacity` the oldest
 * answer makes room. Only answers whose body is already bytes, and that set no cookie, are kept.
 */
export class KeptAnswers {
  readonly #entries = new Map<string, Entry>()
  #generation: number

  constructor(
    private readonly freshness: AnswerFreshness,
    private readonly capacity: number,
    private readonly nowMillis: () => number
  ) {
    this.#generation = freshness.generation()
  }

  /** Calls `done` with the answer kept for `key`, a miss to fill, or undefined when freshness is unknown. */
  lookup(key: string, done: (found: KeptLookup | undefined) => void): void {
    this.freshness.fence((known) => {
      if (!known) return done(undefined)
      const generation = this.freshness.generation()
      if (generation !== this.#generation) {
        this.#entries.clear()
        this.#generation = generation
      }
      const entry = this.#entries.get(key)
      if (entry !== undefined && entry.until > this.nowMillis()) return done({ _tag: "Kept", response: entry.response })
      if (entry !== undefined) this.#entries.delete(key)
      done({ _tag: "Missing", key, generation })
    })
  }

  /** Keeps `response` for the miss it answers, unless a change was counted since the lookup or it has expired. */
  keep(miss: Extract<KeptLookup, { _tag: "Missing" }>, response: HttpServerResponse.HttpServerResponse, until: number): void {
    if (this.freshness.generation() !== miss.generation || until <= this.nowMillis()) return
    if (response.body._tag !== "Uint8Array" && response.body._tag !== "Empty") return
    if (!Cookies.isEmpty(response.cookies)) return
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(miss.key, { response, until })
  }
}
