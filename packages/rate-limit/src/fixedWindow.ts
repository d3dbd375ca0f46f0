/** A fixed window aligned to the Unix epoch: start = floor(now / length) * length. */
export interface FixedWindow {
  readonly startMillis: number
  readonly endMillis: number
}

export const fixedWindowAt = (nowMillis: number, windowSeconds: number): FixedWindow => {
  const lengthMillis = windowSeconds * 1000
  const startMillis = Math.floor(nowMillis / lengthMillis) * lengthMillis
  return { startMillis, endMillis: startMillis + lengthMillis }
}

/** Whole seconds from now until the window ends, never less than 1. */
export const secondsUntilWindowEnds = (nowMillis: number, window: FixedWindow): number =>
  Math.max(1, Math.ceil((window.endMillis - nowMillis) / 1000))
