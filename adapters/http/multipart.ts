import { Writable } from 'node:stream';
import type Koa from 'koa';
import { atFirstUse, sniffedMediaType } from '../first-use.js';
import { HttpProblem, problems } from './problem.js';
import type { MultipartDef, UploadedFile } from './route.js';
import { JSON_BODY_LIMIT_BYTES, mib, refuseDeepNesting, utf8Text } from './raw-body.js';

export interface ParsedMultipart {
  /** Text fields by name (JSON fields parsed), ready for the fields schema. */
  readonly fields: Record<string, unknown>;
  readonly files: Record<string, UploadedFile>;
}


/** formidable, loaded at the first multipart body (uploads are rare next to the JSON routes an idle server answers). */
const formidableLibrary = atFirstUse(() => import('formidable'));

/** The whole body grew past the route's limit (counted as it arrives, whatever Content-Length said). */
class BodyTooLarge extends Error {}
interface Collected {
  readonly name: string;
  readonly filename: string | null;
  readonly declaredType: string | null;
  readonly chunks: Buffer[];
  size: number;
}

/**
 * Reads a multipart/form-data body into memory with formidable: no temporary files. The whole body is limited
 * (413), each declared file part has its own limit (400) and, when it names media types, its bytes must be of one
 * of them (400). Parts the route does not declare are skipped. A text part sent with a Content-Type (some HTTP
 * clients send a JSON part as application/json) is read as text all the same. An empty file part counts as absent.
 */
export async function readMultipart(ctx: Koa.Context, def: MultipartDef<unknown>): Promise<ParsedMultipart> {
  const declaredLength = Number(ctx.get('Content-Length') || 0);
  const hasBody = declaredLength > 0 || ctx.get('Transfer-Encoding') !== '';
  if (!hasBody) return { fields: {}, files: {} };
  if (!ctx.is('multipart/form-data')) {
    throw new HttpProblem(415, 'unsupported_media_type', 'Unsupported media type', 'send the body as multipart/form-data');
  }
  // Refused before a byte is read; Node discards the unread body after the answer.
  if (declaredLength > def.maxTotalBytes) throw problems.tooLarge(mib(def.maxTotalBytes));

  const names = partNames(def);
  const received = await receiveParts(ctx, def, names);
  return assemble(def, names, received);
}

/** The route's file parts and text fields by their lower-case names (part names match case-insensitively). */
interface PartNames {
  readonly fileDefs: ReadonlyMap<string, MultipartDef<unknown>['files'][string] & { readonly name: string }>;
  readonly textNames: ReadonlyMap<string, string>;
}

function partNames(def: MultipartDef<unknown>): PartNames {
  return {
    fileDefs: new Map(Object.entries(def.files).map(([name, f]) => [name.toLowerCase(), { name, ...f }])),
    textNames: new Map(fieldNames(def).map((n) => [n.toLowerCase(), n])),
  };
}

interface Received {
  /** Text parts (no Content-Type of their own), as bytes. */
  readonly textParts: readonly { readonly name: string; readonly chunks: Buffer[] }[];
  /** Parts read as files, kept up to their limit and counted past it. */
  readonly collected: readonly Collected[];
}

/** Reads the body with formidable into memory, part by part, within the route's limits. */
async function receiveParts(ctx: Koa.Context, def: MultipartDef<unknown>, { fileDefs, textNames }: PartNames): Promise<Received> {
  const begun = new Map<unknown, Collected>();
  const collected: Collected[] = [];

  const { formidable, multipart: multipartPlugin } = await formidableLibrary();
  const form = formidable({
    enabledPlugins: [multipartPlugin],
    maxFields: 100,
    maxFieldsSize: def.maxTotalBytes,
    maxFiles: fileDefs.size + textNames.size,
    maxFileSize: def.maxTotalBytes,
    maxTotalFileSize: def.maxTotalBytes,
    allowEmptyFiles: true,
    minFileSize: 0,
    filter: (part) => part.name !== null && (fileDefs.has(part.name.toLowerCase()) || textNames.has(part.name.toLowerCase())),
    fileWriteStreamHandler: (file) => {
      const entry = begun.get(file)!;
      const limit = fileDefs.get(entry.name.toLowerCase())?.maxBytes ?? def.maxTotalBytes;
      // Past its limit a part is only counted (refused once the body is read): a stream error here could lose
      // the race against formidable's end of the part and go unseen.
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          entry.size += chunk.length;
          if (entry.size <= limit) entry.chunks.push(chunk);
          done();
        },
      });
    },
  });
  // Text parts (no Content-Type) are taken here as bytes: formidable would decode them itself, turning bytes that
  // are not UTF-8 into U+FFFD, and they must be refused instead (400 body_not_utf8). The 'field' event still goes
  // out, so that formidable's count of fields (maxFields) holds.
  const textParts: { name: string; chunks: Buffer[] }[] = [];
  form.onPart = (part) => {
    if (part.mimetype) return form._handlePart(part);
    const entry = { name: part.name ?? '', chunks: [] as Buffer[] };
    textParts.push(entry);
    part.on('data', (chunk: Buffer) => entry.chunks.push(chunk));
    part.on('end', () => (form as unknown as NodeJS.EventEmitter).emit('field', entry.name, ''));
  };
  // 'fileBegin' comes just before formidable opens the file's write stream: it tells the stream whose part it is.
  form.on('fileBegin', (name, file) => {
    const entry: Collected = { name, filename: file.originalFilename ?? null, declaredType: file.mimetype ?? null, chunks: [], size: 0 };
    begun.set(file, entry);
    collected.push(entry);
  });
  // Formidable turns an exception thrown while it takes a chunk into a parse error (its data handler catches).
  form.on('progress', (received) => {
    if (received > def.maxTotalBytes) throw new BodyTooLarge();
  });

  try {
    await form.parse(ctx.req);
  } catch (err) {
    // Formidable stops reading at its first error; the rest of the body is drained so the answer can go out.
    ctx.req.resume();
    throw multipartProblem(err, def);
  }

  return { textParts, collected };
}

/** The text fields (JSON fields parsed) and the files of what was received, each held to its rule. */
async function assemble(def: MultipartDef<unknown>, { fileDefs, textNames }: PartNames, { textParts, collected }: Received): Promise<ParsedMultipart> {
  const fields = Object.create(null) as Record<string, unknown>;
  const addText = (name: string, value: string) => {
    const key = textNames.get(name.toLowerCase()) ?? name;
    if (key in fields) throw problems.validation(`body.${key}: send this field once`, [{ path: `body.${key}`, message: 'send this field once' }]);
    fields[key] = value;
  };
  const jsonFields = new Set((def.jsonFields ?? []).map((n) => n.toLowerCase()));
  // A text part, with or without a Content-Type of its own: UTF-8, and a JSON field no larger or deeper than a JSON
  // body may be (it could otherwise fill the whole form). A field the route does not take is ignored, as an
  // unknown JSON property is, but the NUL rule still holds.
  const takeText = (partName: string, bytes: Buffer) => {
    const value = utf8Text(bytes);
    const name = textNames.get(partName.toLowerCase());
    if (name === undefined) {
      if (partName.includes('\0') || value.includes('\0')) throw problems.nul();
      return;
    }
    if (jsonFields.has(name.toLowerCase())) {
      if (bytes.length > JSON_BODY_LIMIT_BYTES) {
        const message = `at most ${JSON_BODY_LIMIT_BYTES} bytes of JSON`;
        throw problems.tooLong(`body.${name}: ${message}`, [{ path: `body.${name}`, message }]);
      }
      refuseDeepNesting(bytes);
    }
    addText(name, value);
  };
  for (const part of textParts) takeText(part.name, Buffer.concat(part.chunks));

  const files: Record<string, UploadedFile> = {};
  for (const entry of collected) {
    const fileDef = fileDefs.get(entry.name.toLowerCase());
    if (entry.size > (fileDef?.maxBytes ?? def.maxTotalBytes)) {
      const part = fileDef?.name ?? entry.name;
      const message = `at most ${fileDef?.maxBytes ?? def.maxTotalBytes} bytes`;
      throw problems.tooLong(`body.${part}: ${message}`, [{ path: `body.${part}`, message }]);
    }
    const bytes = Buffer.concat(entry.chunks);
    if (!fileDef) {
      takeText(entry.name, bytes);
      continue;
    }
    if (bytes.length === 0) continue;
    if (fileDef.name in files) throw problems.validation(`body.${fileDef.name}: send one file`, [{ path: `body.${fileDef.name}`, message: 'send one file' }]);
    files[fileDef.name] = { mediaType: await mediaTypeOf(fileDef.name, bytes, fileDef.mediaTypes, entry.declaredType), filename: entry.filename, bytes };
  }

  // The NUL rule and the prototype keys are checked on the fields (JSON fields parsed) when they are validated
  // (adapters/http/validation.ts): the text of the body, not the bytes of its files.
  for (const name of def.jsonFields ?? []) {
    const text = fields[name];
    if (typeof text !== 'string') continue;
    try {
      fields[name] = JSON.parse(text);
    } catch {
      throw problems.validation(`body.${name}: not valid JSON`, [{ path: `body.${name}`, message: 'not valid JSON' }]);
    }
  }
  return { fields, files };
}

async function mediaTypeOf(part: string, bytes: Buffer, accepted: readonly string[] | undefined, declared: string | null): Promise<string> {
  if (!accepted) return declared ?? 'application/octet-stream';
  const sniffed = await sniffedMediaType(bytes);
  if (sniffed && accepted.includes(sniffed)) return sniffed;
  const message = `must be ${accepted.join(', ')} (judged by its bytes${sniffed ? `, which are ${sniffed}` : ''})`;
  throw problems.validation(`body.${part}: ${message}`, [{ path: `body.${part}`, message }]);
}

function multipartProblem(err: unknown, def: MultipartDef<unknown>): unknown {
  if (err instanceof BodyTooLarge) return problems.tooLarge(mib(def.maxTotalBytes));
  // Without formidable loaded no body was read by it: the error is not one of its refusals.
  const formidableErrors = formidableLibrary.made()?.errors;
  if (!formidableErrors) return err;
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  switch (code) {
    case formidableErrors.biggerThanTotalMaxFileSize:
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.maxFieldsSizeExceeded:
      return problems.tooLarge(mib(def.maxTotalBytes));
    case formidableErrors.maxFieldsExceeded:
    case formidableErrors.maxFilesExceeded:
      return problems.validation('the body has more parts than this operation takes');
    case formidableErrors.malformedMultipart:
    case formidableErrors.missingMultipartBoundary:
    case formidableErrors.missingContentType:
    case formidableErrors.noParser:
    case formidableErrors.unknownTransferEncoding:
    case formidableErrors.aborted:
      return problems.validation('the body is not valid multipart/form-data');
    default:
      // Any other refusal of formidable's is about the body's form; anything else is a fault (500).
      return typeof code === 'number' ? problems.validation('the body is not valid multipart/form-data') : err;
  }
}

/** The names of the fields schema's entries (an object schema, possibly wrapped). */
function fieldNames(def: MultipartDef<unknown>): string[] {
  let s = def.fields as unknown as { wrapped?: unknown; entries?: Record<string, unknown> };
  while (s.wrapped) s = s.wrapped as typeof s;
  return Object.keys(s.entries ?? {});
}
