import type { Knex } from 'knex';
import type { PublicDataFileHead, PublicDataFiles } from '../../ports/public-data-files.js';
import { cachedPublicDataFiles } from '../publicdata/cached-files.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface HeadRow {
  name: string;
  sha256: string;
  size: number | string;
  built_at: Date | string;
}

const toHead = (r: HeadRow): PublicDataFileHead => ({ name: r.name, sha256: r.sha256, size: Number(r.size), builtAt: toDate(r.built_at) });

/** The stored files, read through an in-process copy per file (adapters/publicdata/cached-files.ts). */
export function knexPublicDataFiles(knex: Knex): PublicDataFiles {
  return cachedPublicDataFiles(storedPublicDataFiles(knex));
}

function storedPublicDataFiles(knex: Knex): PublicDataFiles {
  return translated<PublicDataFiles>(knex, {
    async put(file) {
      await knex('public_data_files')
        .insert({ name: file.name, sha256: file.sha256, size: file.bytes.byteLength, built_at: iso(file.builtAt), bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) })
        .onConflict('name')
        .merge(['sha256', 'size', 'built_at', 'bytes']);
    },
    async get(name) {
      const row = (await knex('public_data_files').where({ name }).first()) as (HeadRow & { bytes: Buffer }) | undefined;
      if (!row) return null;
      return { name: row.name, sha256: row.sha256, builtAt: toDate(row.built_at), bytes: row.bytes };
    },
    async head(name) {
      const row = (await knex('public_data_files').select('name', 'sha256', 'size', 'built_at').where({ name }).first()) as HeadRow | undefined;
      return row ? toHead(row) : null;
    },
  });
}
