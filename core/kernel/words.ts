/** Each word once, whatever its case, as first given (`['Nøtter', 'nøtter', 'egg']` → `['Nøtter', 'egg']`). */
export function onceEachIgnoringCase(words: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const w of words) if (!seen.has(w.toLowerCase())) seen.set(w.toLowerCase(), w);
  return [...seen.values()];
}
