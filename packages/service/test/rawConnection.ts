import { once } from "node:events"
import { connect, type Socket } from "node:net"

export interface RawResponse {
  readonly status: number
  readonly headers: ReadonlyMap<string, string>
  readonly body: string
}

/**
 * One HTTP/1.1 connection driven by hand, to control what is sent on it and when (a keep-alive
 * connection across a shutdown). Answers are read in order; they must carry Content-Length.
 */
export class RawConnection {
  private buffered = Buffer.alloc(0)
  private waiting: (() => void) | undefined
  /** Resolves when the server closes the connection. */
  readonly closed: Promise<void>

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk])
      this.waiting?.()
    })
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()))
    void this.closed.then(() => this.waiting?.())
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = connect(port, "127.0.0.1")
    await once(socket, "connect")
    return new RawConnection(socket)
  }

  send(text: string): void {
    this.socket.write(text)
  }

  /** The next answer on the connection, or undefined when it closes first. */
  async nextResponse(): Promise<RawResponse | undefined> {
    let closed = false
    void this.closed.then(() => {
      closed = true
    })
    while (true) {
      const parsed = this.take()
      if (parsed !== undefined) return parsed
      if (closed || this.socket.destroyed) return undefined
      await new Promise<void>((resolve) => {
        this.waiting = resolve
      })
    }
  }

  destroy(): void {
    this.socket.destroy()
  }

  private take(): RawResponse | undefined {
    const end = this.buffered.indexOf("\r\n\r\n")
    if (end === -1) return undefined
    const [statusLine = "", ...lines] = this.buffered.subarray(0, end).toString("latin1").split("\r\n")
    const headers = new Map(lines.map((line) => {
      const colon = line.indexOf(":")
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const
    }))
    const length = Number(headers.get("content-length") ?? "0")
    if (this.buffered.length < end + 4 + length) return undefined
    const body = this.buffered.subarray(end + 4, end + 4 + length).toString("utf8")
    this.buffered = this.buffered.subarray(end + 4 + length)
    return { status: Number(statusLine.split(" ")[1]), headers, body }
  }
}
