import { request } from "node:http"

export interface CsvAnswer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: any
}

/**
 * POSTs a CSV body to an import route as a stream: each chunk the source yields is written when
 * the socket takes it, so a test controls when the body advances (or stalls). Writing stops as
 * soon as the server answers.
 */
export const postCsv = (
  url: string,
  source: AsyncIterable<string> | string,
  headers: Record<string, string>
): Promise<CsvAnswer> =>
  new Promise((resolve, reject) => {
    let answered = false
    const outgoing = request(url, { method: "POST", agent: false, headers: { "content-type": "text/csv", ...headers } }, (response) => {
      answered = true
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text.length > 0 ? JSON.parse(text) : null })
        outgoing.destroy()
      })
    })
    // The server may answer (413, 503) and close while the body is still being sent.
    outgoing.on("error", (error) => {
      if (!answered) reject(error)
    })
    const write = async () => {
      if (typeof source === "string") {
        outgoing.end(source)
        return
      }
      for await (const chunk of source) {
        if (answered || outgoing.destroyed) return
        if (!outgoing.write(chunk)) await new Promise((drained) => outgoing.once("drain", drained))
      }
      if (!answered && !outgoing.destroyed) outgoing.end()
    }
    write().catch(() => {})
  })

/** A gate a generator waits at until the test opens it. */
export const gate = () => {
  let open: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}
