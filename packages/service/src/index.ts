export { ExpiringCache } from "./ExpiringCache.ts"
export { epochSeconds, now } from "./now.ts"
export { periodicSweep, SWEEP_INTERVAL } from "./periodicSweep.ts"
