import type { SqlClient } from "@effect/sql"
import type { Layer } from "effect"
import { Clock, Effect } from "effect"
import { periodicSweep } from "@platform/service"
import { DeviceCodesRepo } from "./DeviceCodesRepo.ts"

/** Deletes device codes 7 days after they expire. */
export const DeviceCodesSweeperLive: Layer.Layer<never, never, DeviceCodesRepo | SqlClient.SqlClient> = periodicSweep(
  "device_codes",
  Effect.flatMap(DeviceCodesRepo, (codes) =>
    Effect.flatMap(Clock.currentTimeMillis, (millis) => codes.sweep(new Date(millis))))
)
