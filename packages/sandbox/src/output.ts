/** Keeps the first `limit` bytes of a stream and counts the rest, so a chatty command cannot fill memory. */
export const cappedOutput = (limit: number) => {
  const chunks: Array<Buffer> = []
  let kept = 0
  let truncated = false
  return {
    push: (chunk: Buffer) => {
      if (kept >= limit) {
        truncated = true
        return
      }
      const room = limit - kept
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk
      if (part.length < chunk.length) truncated = true
      chunks.push(part)
      kept += part.length
    },
    /** UTF-8, a sequence cut at the limit shown as U+FFFD. */
    text: () => Buffer.concat(chunks).toString("utf8"),
    truncated: () => truncated
  }
}
