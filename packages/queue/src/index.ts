/** A claimed-work queue in PostgreSQL: jobs written with the change that causes them, run by workers in any number of processes. */
export { enqueue } from "./enqueue.ts"
export { GAVE_UP, PENDING, type QueueTable, queueTable, type QueueTableDefinition } from "./QueueTable.ts"
export { isPostponed, postpone, type Postponed } from "./Postponed.ts"
export { giveUpPending, requeue } from "./requeue.ts"
export { createQueueTable } from "./QueueTableMigration.ts"
export {
  DEFAULT_ATTEMPT_TIMEOUT,
  DEFAULT_LEASE,
  type Job,
  makeQueueWorker,
  type QueueWorker,
  queueWorkerLayer,
  type QueueWorkerOptions,
  type QueueWorkerSettings,
  type RetryPolicy
} from "./QueueWorker.ts"
export { sleepInRealTime } from "./realTime.ts"
export { delayBeforeRetry } from "./retrySchedule.ts"
