import { performance } from "node:perf_hooks"

export interface LoadResult {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

/**
 * Load where each request depends on the previous answer (a refresh-token chain): `workers`
 * loops run side by side for `seconds`, each sending its next request only after reading the
 * last answer. autocannon prepares requests ahead of answers, which would reuse a spent token.
 */
export const chainLoad = async <S>(options: {
  readonly workers: number
  readonly seconds: number
  readonly initial: (worker: number) => S
  readonly send: (state: S) => Promise<{ readonly ok: boolean; readonly next: S }>
}): Promise<LoadResult> => {
  const latencies: Array<number> = []
  let failures = 0
  const deadline = performance.now() + options.seconds * 1000
  const started = performance.now()
  await Promise.all(Array.from({ length: options.workers }, async (_, worker) => {
    let state = options.initial(worker)
    while (performance.now() < deadline) {
      const begin = performance.now()
      const answer = await options.send(state)
      latencies.push(performance.now() - begin)
      if (answer.ok) state = answer.next
      else failures++
    }
  }))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)
  return { rps: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99), non2xx: failures }
}

/**
 * Refresh-token rotation chains, one loop per entry of `chains`: each sends the token it holds and
 * keeps the one it gets back, in `chains` too, so that a later run (after a warm-up) goes on from there.
 */
export const rotationChains = (
  chains: Array<string>,
  seconds: number,
  rotate: (refreshToken: string) => Promise<Response>
): Promise<LoadResult> =>
  chainLoad({
    workers: chains.length,
    seconds,
    initial: (worker) => worker,
    send: async (worker) => {
      const response = await rotate(chains[worker] ?? "")
      const body = await response.json() as { refresh_token?: string }
      if (body.refresh_token !== undefined) chains[worker] = body.refresh_token
      return { ok: response.status === 200, next: worker }
    }
  })
