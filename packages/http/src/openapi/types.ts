/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1): a TypeBox type or a plain object. */
export type JsonSchema = object

export interface OpenApiParameter {
  name: string
  in: 'query' | 'header' | 'path'
  description?: string
  required?: boolean
  style?: 'deepObject'
  explode?: boolean
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

export interface OpenApiRequestBody {
  description?: string
  required?: boolean
  content: Record<string, OpenApiMedia>
}
