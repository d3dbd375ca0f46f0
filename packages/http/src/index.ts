export * from "./ApiError.ts"
export * from "./ApiVersion.ts"
export { type ErrorFormat, ErrorFormatId, type JsonErrorFormat, type PageErrorFormat } from "./ErrorFormat.ts"
export * from "./ClientAddress.ts"
export * from "./Conventions.ts"
export * from "./Cookies.ts"
export * from "./ErrorResponse.ts"
export * from "./errors.ts"
export { respondWithError } from "./ErrorTranslation.ts"
export * from "./Origin.ts"
export * from "./RequestId.ts"
export * from "./ResponseHeaders.ts"
export {
  DEFAULT_MAX_BODY_BYTES,
  type ExtraRoute,
  HtmlPage,
  makeRouteTable,
  MaxBodyBytes,
  StreamedBody,
  DEFAULT_TIME_BUDGET_MILLIS,
  TimeBudgetMillis,
  type Route,
  type RouteTable
} from "./RouteTable.ts"
export * from "./StrictBody.ts"
export * from "./OpenApiConventions.ts"
export * from "./PublicDocuments.ts"
export { mediaTypeOf } from "./ContentType.ts"
export * from "./Pagination.ts"
export { jsonNestsDeeperThan, MAX_JSON_DEPTH } from "./JsonLimits.ts"
export { parameterProblem, textProblem } from "./TextRules.ts"
export { escapeHtml, Html, html, type Part, trusted } from "./pages/html.ts"
export { htmlResponse, HtmlText } from "./pages/htmlDocument.ts"
export { pageHeaders } from "./pages/pageHeaders.ts"
export {
  type HashedAsset,
  type HashedAssets,
  hashedAssetEndpoint,
  hashedAssetResponse,
  hashedAssets,
  IMMUTABLE
} from "./pages/hashedAssets.ts"
export { sendResponse } from "./NodeResponse.ts"
export { NodeServerRequest } from "./ServerRequest.ts"
export * from "./RequestLog.ts"
export { pathOf, percentDecoded, searchParamsOf } from "./RequestUrl.ts"
export { type AnswerFreshness, keepAnswerUntil, KeepsAnswers } from "./KeptAnswers.ts"
