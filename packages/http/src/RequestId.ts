import { randomUUID } from "node:crypto"

const VALID_REQUEST_ID = /^[A-Za-z0-9\-_.:]{1,128}$/

/** The caller's `X-Request-Id` when it is 1 to 128 of `A-Z a-z 0-9 - _ . :`, otherwise a new one. */
export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && VALID_REQUEST_ID.test(header) ? header : `req_${randomUUID().replaceAll("-", "")}`
