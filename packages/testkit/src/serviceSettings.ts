import type { ServiceSettings } from "@platform/service"
import { Option } from "effect"

/** The shared settings of a service under test on `port`: development, loopback, no proxy, no keys, a 1-second drain. */
export const serviceTestSettings = (port: number): ServiceSettings => ({
  port,
  host: "127.0.0.1",
  publicUrl: `http://127.0.0.1:${port}`,
  environment: "development",
  trustProxy: false,
  internalToken: Option.none(),
  keyEncryptionKey: Option.none(),
  drainSeconds: 1
})
