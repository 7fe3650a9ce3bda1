import type { Migration } from './index.js'

/**
 * Semantic vectors, when the database offers pgvector. A server without the extension (or a role
 * that may not create it) still migrates: the block creates nothing, and the store's vector methods
 * answer `UNAVAILABLE`. Installing pgvector later and calling `enableVectors(client)` runs this
 * block again (it is idempotent).
 *
 * - `file_vectors` holds one row per passage. It references the file and nothing else: tenant,
 *   network and group are read from `files` at query time, so moving a file between groups moves
 *   its vectors and `on delete cascade` removes them with the file.
 * - `embedding` has no fixed dimension (embedders differ); `vector_index` records the one embedder
 *   whose vectors the table holds, and the store builds the HNSW index over
 *   `embedding::vector(<its dimensions>)` when that row is first written.
 * - Types and operators are qualified with the extension's schema, which need not be on every
 *   deployment's search_path.
 */
export const vectors: Migration = {
  version: 6,
  name: 'vectors',
  statements: [
    `do $migration$
    declare
      ext_schema text;
    begin
      if not exists (select 1 from pg_available_extensions where name = 'vector') then
        raise notice 'pinfold: pgvector is not installed; semantic vectors are unavailable';
        return;
      end if;
      -- An extension belongs to the whole database: made in this store's schema (the first on the
      -- search_path), dropping that schema would drop it, and with it the vector columns of every
      -- other store in the database. So it goes to public where this role may put it there.
      begin
        create extension if not exists vector schema public;
      exception when others then
        begin
          create extension if not exists vector;
        exception when others then
          raise notice 'pinfold: cannot create extension vector (%); semantic vectors are unavailable', sqlerrm;
          return;
        end;
      end;
      select n.nspname into ext_schema
        from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'vector';
      execute format(
        'create table if not exists file_vectors (
          file_id uuid not null references files (id) on delete cascade,
          passage integer not null check (passage >= 0),
          embedding %I.vector not null,
          primary key (file_id, passage)
        )', ext_schema);
      create table if not exists vector_index (
        singleton boolean primary key default true check (singleton),
        embedder_id text not null,
        dimensions integer not null check (dimensions > 0)
      );
    end
    $migration$`,
  ],
}
