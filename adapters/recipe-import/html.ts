import type { DefaultTreeAdapterTypes as T } from 'parse5';

/** Text out of parse5's tree, and the walks over it, shared by the readers of a recipe page. */

export const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'td', 'th', 'tr', 'ul',
]);
export const UNSEEN = new Set(['script', 'style', 'noscript', 'template', 'head']);
const BREAK = Symbol('break');

/**
 * The text of a node, as lines: a line ends at <br> and at the edges of block elements, and at a newline in the text
 * when `newlinesBreak` (JSON strings; in HTML source a newline is only a space).
 */
export function textLines(root: T.ParentNode, newlinesBreak: boolean): string[] {
  let out = '';
  const stack: (T.ChildNode | typeof BREAK)[] = children(root);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === BREAK) out += '\n';
    else if (node.nodeName === '#text') out += newlinesBreak ? (node as T.TextNode).value : (node as T.TextNode).value.replace(/[\r\n]+/g, ' ');
    else if (isElement(node) && !UNSEEN.has(node.tagName)) {
      if (node.tagName === 'br') out += '\n';
      else if (BLOCKS.has(node.tagName)) {
        out += '\n';
        stack.push(BREAK);
        pushAll(stack, children(node));
      } else pushAll(stack, children(node));
    }
  }
  return plainLines(out);
}

export function plainLines(s: string): string[] {
  return s.split(/\r\n|\r|\n/).map(tidy).filter((l) => l !== '');
}

/** Whitespace collapsed (no-break spaces included), invisible characters dropped. */
export function tidy(s: string): string {
  return s.replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, '').replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------------
// parse5's tree

export function isElement(node: T.ChildNode): node is T.Element {
  return 'tagName' in node;
}

export function attr(el: T.Element, name: string): string | null {
  return el.attrs.find((a) => a.name === name)?.value ?? null;
}

/** A node's children, last first: ready to be a stack that pops them in document order. */
export function children(node: T.ParentNode): T.ChildNode[] {
  return [...node.childNodes].reverse();
}

/** Pushes one by one: spreading a node's children into push() fails past some hundred thousand. */
export function pushAll<V>(stack: V[], items: readonly V[]): void {
  for (const item of items) stack.push(item);
}

/** The text directly inside an element (a script's or a title's). */
export function ownText(el: T.Element): string {
  return el.childNodes.map((n) => (n.nodeName === '#text' ? (n as T.TextNode).value : '')).join('');
}
