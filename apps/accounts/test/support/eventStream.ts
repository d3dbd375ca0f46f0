import { Effect } from "effect"

/** One Server-Sent Events frame as a client parses it; `comment` for a `:` line (the heartbeat). */
export interface SseFrame {
  readonly id?: string
  readonly event?: string
  readonly data?: string
  readonly retry?: string
  readonly comment?: string
}

export interface OpenedEventStream {
  readonly status: number
  readonly headers: Headers
  /** The JSON error body when the status is not 200. */
  readonly error: any
  /** The next frame; fails when the server ends the stream first. */
  readonly next: Effect.Effect<SseFrame>
  /** The next `count` frames that name an event (the opening frame and heartbeats are passed over). */
  readonly nextEvents: (count: number) => Effect.Effect<ReadonlyArray<SseFrame>>
  /** Resolves when the server has ended the response. */
  readonly ended: Effect.Effect<void>
}

const parseFrame = (text: string): SseFrame => {
  const frame: Record<string, string> = {}
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) {
      frame["comment"] = line.slice(1).trim()
      continue
    }
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "")
    frame[field] = field in frame && field === "data" ? `${frame[field]}\n${value}` : value
  }
  return frame
}

/**
 * GET /v1/events/stream with `headers`, read frame by frame until the scope closes (which disconnects).
 * Frames are cut at blank lines, as EventSource does.
 */
export const openEventStream = (url: string, headers: Record<string, string> = {}, query = "") =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<OpenedEventStream & { readonly abort: () => void }> => {
      const controller = new AbortController()
      const response = await fetch(`${url}/v1/events/stream${query}`, { headers, signal: controller.signal })
      if (response.status !== 200) {
        const text = await response.text()
        const failed = Effect.die(new Error(`no stream: ${response.status}`))
        return {
          status: response.status,
          headers: response.headers,
          error: text === "" ? null : JSON.parse(text),
          next: failed,
          nextEvents: () => failed,
          ended: Effect.void,
          abort: () => controller.abort()
        }
      }
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      let buffered = ""
      let done = false
      const nextFrame = async (): Promise<SseFrame> => {
        for (;;) {
          const end = buffered.indexOf("\n\n")
          if (end !== -1) {
            const text = buffered.slice(0, end)
            buffered = buffered.slice(end + 2)
            return parseFrame(text)
          }
          if (done) throw new Error("the stream ended")
          const read = await reader.read()
          if (read.done) done = true
          else buffered += read.value
        }
      }
      const next = Effect.promise(nextFrame)
      return {
        status: 200,
        headers: response.headers,
        error: null,
        next,
        nextEvents: (count) =>
          Effect.promise(async () => {
            const frames: Array<SseFrame> = []
            while (frames.length < count) {
              const frame = await nextFrame()
              if (frame.event !== undefined) frames.push(frame)
            }
            return frames
          }),
        ended: Effect.promise(async () => {
          while (!done) {
            const read = await reader.read()
            if (read.done) done = true
            else buffered += read.value
          }
        }),
        abort: () => controller.abort()
      }
    }),
    (stream) => Effect.sync(() => stream.abort())
  )
