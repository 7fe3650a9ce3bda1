import type { Migration } from './index.js'

/** Resumable (tus) upload sessions; their bytes live in part blobs named in `parts`. */
export const uploads: Migration = {
  version: 3,
  name: 'uploads',
  statements: [
    `create table upload_sessions (
      id text primary key,
      token_hash text not null,
      tenant_id text not null,
      user_id text not null,
      length bigint not null check (length >= 0),
      upload_offset bigint not null check (upload_offset >= 0 and upload_offset <= length),
      parts text[] not null default '{}',
      file_name text not null,
      mime_type text,
      options jsonb not null default '{}',
      constraints jsonb,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`,
    'create index upload_sessions_expires_idx on upload_sessions (expires_at)',
  ],
}
