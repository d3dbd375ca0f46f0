import cluster from "node:cluster"

/** Set by the primary on each worker it forks: the worker's number, 1 to N, kept when it is restarted. */
export const WORKER_NUMBER_ENV = "PLATFORM_WORKER_NUMBER"

/** This process's number among the workers of one service (1 to N), or undefined when it runs alone. */
export const workerNumber = (): number | undefined => {
  if (!cluster.isWorker) return undefined
  const number = Number(process.env[WORKER_NUMBER_ENV])
  return Number.isSafeInteger(number) && number >= 1 ? number : undefined
}

/** Work one process of the service does for all of them (the retention sweeps): a lone process, or worker 1. */
export const doesSharedChores = (): boolean => (workerNumber() ?? 1) === 1
