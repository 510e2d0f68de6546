import { parse, type DefaultTreeAdapterTypes as T } from 'parse5';

/**
 * Bytes of a fetched page to text, choosing the charset the way a browser does (WHATWG "encoding sniffing", less
 * its guessing): older Norwegian recipe sites still serve windows-1252 or iso-8859-1, and reading their æøå as UTF-8
 * would spoil every ingredient line. A label we cannot decode is passed over, never thrown: the page is the
 * stranger's, the fault is not the person's.
 */

/** Only this much of the page is searched for a <meta> charset, as browsers do. */
const PRESCAN_BYTES = 1024;

export function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const encoding = fromBom(bytes) ?? known(charsetIn(contentType ?? '')) ?? fromMeta(bytes) ?? 'utf-8';
  // The decoder drops a BOM of its own encoding and puts U+FFFD for bytes it cannot read.
  return new TextDecoder(encoding).decode(bytes);
}

function fromBom(b: Uint8Array): string | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The charset parameter of a Content-Type header or of a meta http-equiv's content. */
function charsetIn(value: string): string | null {
  const m = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(value);
  const label = (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').trim();
  return label === '' ? null : label;
}

/** The encoding's name if TextDecoder knows the label, else null (the next source is asked). */
function known(label: string | null): string | null {
  if (label === null) return null;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * <meta charset> or <meta http-equiv="Content-Type"> in the first 1024 bytes, read as latin1 so that every byte is a
 * character and the parser (not a pattern) tells a meta from a comment or an attribute value.
 */
function fromMeta(bytes: Uint8Array): string | null {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, PRESCAN_BYTES));
  const stack: T.ChildNode[] = [...parse(head).childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('tagName' in node)) continue;
    if (node.tagName === 'meta') {
      const found = metaCharset(node);
      if (found !== null) return found;
    }
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return null;
}

function metaCharset(meta: T.Element): string | null {
  const attr = (name: string) => meta.attrs.find((a) => a.name === name)?.value ?? null;
  let label = attr('charset');
  if (label === null && attr('http-equiv')?.trim().toLowerCase() === 'content-type') label = charsetIn(attr('content') ?? '');
  const encoding = label === null ? null : label.trim().toLowerCase() === 'x-user-defined' ? 'windows-1252' : known(label);
  // A page that could be read far enough to find its meta is not UTF-16: browsers take UTF-8 then.
  return encoding !== null && encoding.startsWith('utf-16') ? 'utf-8' : encoding;
}
