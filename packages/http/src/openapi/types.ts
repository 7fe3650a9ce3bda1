/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = { [keyword: string]: unknown }

export interface OpenApiParameter {
  name: string
  in: 'query' | 'header' | 'path'
  description?: string
  required?: boolean
  schema: JsonSchema
}

export interface OpenApiMedia {
  schema: JsonSchema
}

export interface OpenApiResponse {
  description: string
  headers?: Record<string, { description?: string; schema: JsonSchema }>
  content?: Record<string, OpenApiMedia>
}

/**
 * The OpenAPI description of one route. Path parameters come from the route's `:name` segments;
 * every route also documents the `{error}` answers (4XX/5XX, plus 401/403 when it needs a token).
 */
export interface RouteOpenApi {
  tags?: string[]
  description?: string
  /** Query and header parameters (path parameters are derived from the route's path). */
  parameters?: OpenApiParameter[]
  /** Overrides the derived schema of a path parameter. */
  pathParameters?: Record<string, { description?: string; schema?: JsonSchema }>
  requestBody?: { description?: string; required?: boolean; content: Record<string, OpenApiMedia> }
  /** Success (and route-specific failure) responses by status code. */
  responses: Record<string, OpenApiResponse>
}
