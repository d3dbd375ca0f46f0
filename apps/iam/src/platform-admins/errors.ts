import { ApiError } from "@platform/http"

/** The bearer's Carbon holds no current platform admin grant (a Silicon never does). */
export class PlatformAdminRequired extends ApiError<PlatformAdminRequired>()("PlatformAdminRequired", {
  code: "platform_admin_required",
  status: 403
}) {}
