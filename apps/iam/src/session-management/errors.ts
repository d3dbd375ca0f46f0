import { ApiError } from "@platform/http"

/** No open session of the caller's has that id (another identity's sessions are not told apart from none). */
export class SessionNotFound extends ApiError<SessionNotFound>()("SessionNotFound", {
  code: "session_not_found",
  status: 404
}) {}
